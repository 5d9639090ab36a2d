/*
 * banned.h - functions this code must not call, in git's manner: each is
 * redefined to an undeclared name, so a call fails to compile and the
 * error names the reason.  Never included directly: compat.h includes it
 * after the system headers that declare these functions, and the
 * Makefile puts compat.h before the first line of every C file.
 * mk/lint/banned.sh finds the same calls in every file.
 *
 * Why: strcpy, strcat, sprintf, vsprintf and gets write without a bound;
 * strncpy and strncat truncate silently or leave no NUL; atoi, atol and
 * atoll cannot report an error (use num.h or strtoll with a check);
 * strtok keeps hidden state; asctime, ctime, gmtime and localtime return
 * a shared static buffer (use the _r forms).
 */
#ifndef GS_BANNED_H
#define GS_BANNED_H

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef strncat
#define strncat(x, y, n) BANNED(strncat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef atoi
#define atoi(x) BANNED(atoi)
#undef atol
#define atol(x) BANNED(atol)
#undef atoll
#define atoll(x) BANNED(atoll)
#undef gets
#define gets(x) BANNED(gets)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef asctime
#define asctime(t) BANNED(asctime)
#undef ctime
#define ctime(t) BANNED(ctime)
#undef gmtime
#define gmtime(t) BANNED(gmtime)
#undef localtime
#define localtime(t) BANNED(localtime)

#endif
