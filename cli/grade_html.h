/* grade_html.h - the HTML report of a grading run, private to the grading
 * engine (grade.h). */
#ifndef BC_GRADE_HTML_H
#define BC_GRADE_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "grade.h"
#include "grade_file.h"

/* Text escaped for HTML. */
void cliWriteHtmlText(FILE* f, const char* text);

/* A file's section: its failing records, each with the reason and (when
 * the throw is known) pictures of it, expected beside actual. */
void cliWriteHtmlSection(FILE* f, const cliGradeConfig* cfg, const cliFileReport* r, const cliResultSet* expected,
						 const cliResultSet* actual);

/* An unreadable file's section: its name and why. */
void cliWriteHtmlUnreadable(FILE* f, const char* name, const char* reason);

/* The page under title: the score table (rows coloured by score band,
 * scores to 3 digits), then the sections written before. */
void cliWriteHtmlPage(FILE* f, const char* title, const cliFileScore* scores, int count, const char* sections,
					  size_t sectionsSize);

#endif
