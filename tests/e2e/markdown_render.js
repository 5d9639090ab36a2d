// markdown_render.js FILE: FILE rendered as GitHub renders a comment
// (CommonMark, GFM tables and strikethrough, raw HTML passed through,
// autolinks of www., scheme:// and e-mail addresses), printed as HTML.
// markdown-it with linkify stands in for GitHub's cmark-gfm.
"use strict";
const fs = require("fs");
const MarkdownIt = require(process.env.MARKDOWN_IT);
const md = new MarkdownIt({ html: true, linkify: true });
process.stdout.write(md.render(fs.readFileSync(process.argv[2], "utf8")));
