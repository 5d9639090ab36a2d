/* live.h - forwards to pipeline/live.h and cmd/opts_live.h. */
#include "pipeline/live.h"
#include "cmd/opts_live.h"
