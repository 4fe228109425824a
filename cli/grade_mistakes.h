/* grade_mistakes.h - the diagnosis, private to the grading engine
 * (grade.h): the mistakes of the catalogue (cliMistake) that explain a
 * submission's failures. */
#ifndef BC_GRADE_MISTAKES_H
#define BC_GRADE_MISTAKES_H

#include <stdbool.h>

#include "grade_config.h"
#include "grade_file.h"
#include "grade_judge.h"

/* Name the mistakes of r (its entries filled by comparing actual with
 * expected): count what each explains, weigh it against the passes, order
 * them and word the best in r->score.diagnosis. False when out of memory. */
bool cliDiagnoseFile(cliComparer* cmp, const cliResultSet* expected, const cliResultSet* actual, cliFileReport* r);

/* The best-ranked mistake named that explains an entry, cli_mistakeCount
 * when it is the pair named (r->pair), or -1. */
int cliEntryMistake(const cliFileReport* r, const cliEntry* entry);

/* The tag of an entry's mistake in the reports: " [larger-root]", " [larger-root
 * + one-based-triangles]", or nothing. */
void cliWriteEntryMistake(FILE* f, const cliFileReport* r, const cliEntry* entry);

#endif
