/* grade_report.c - the text, JSON, CSV, JUnit and Gradescope reports of a
 * grading run (grade_report.h): a file's lines, the score table, the JSON
 * document, a JUnit test suite per file, Gradescope's results.json. */
#include "grade_report.h"

#include <stdlib.h>
#include <string.h>

#include "grade_mistakes.h"
#include "output.h"
#include "svg.h"
#include "records.h"

void cliWriteRoundedScore(FILE* f, double score)
{
	char text[32];
	snprintf(text, sizeof text, "%.3g", score);
	if (score < 1.0 && strcmp(text, "1") == 0) {
		snprintf(text, sizeof text, "0.999"); /* a file that fails something never reads as 1 */
	}
	fputs(text, f);
}

static const char* const normalsNames[3] = { "contact", "triangle", "average" };

/* The name of a cli_normals* bit. */
static const char* normalsName(unsigned bit)
{
	return bit == cli_normalsTriangle ? normalsNames[1] : bit == cli_normalsAverage ? normalsNames[2] : normalsNames[0];
}

void cliWriteTextHeader(FILE* f, const cliGradeConfig* cfg)
{
	if (cfg->acceptNormals == 0) {
		return;
	}
	if (cfg->normalConvention != 0) {
		fprintf(f, "normals: the %s normal, also accepted: ", normalsName(cfg->normalConvention));
	} else {
		fputs("normals: EXPECTED's or a tied contact's, also accepted: ", f);
	}
	const char* separator = "";
	for (unsigned bit = 1; bit <= cli_normalsAverage; bit <<= 1) {
		if (cfg->acceptNormals & bit) {
			fprintf(f, "%s%s", separator, normalsName(bit));
			separator = ", ";
		}
	}
	fputs(" (--accept-normals)\n", f);
}

void cliWriteTextLines(FILE* f, const cliFileReport* r, const cliResultSet* expected, long maxFailures)
{
	if (r->note[0] != '\0') {
		fprintf(f, "%s: note: %s\n", r->score.name, r->note);
	}
	if (r->score.review != NULL) {
		fprintf(f, "%s: review: %s\n", r->score.name, r->score.review);
	}
	if (r->unmatched) {
		/* nothing matched: the note says why, once, not a line per id */
		if (r->score.diagnosis != NULL) {
			fprintf(f, "%s: diagnosis: %s\n", r->score.name, r->score.diagnosis);
		}
		return;
	}
	long shown = 0;
	for (long i = 0; i < r->entryCount; ++i) {
		if (maxFailures > 0 && shown == maxFailures) {
			fprintf(f, "%s: %ld more failing or missing records (--max-failures 0 lists them all)\n",
					r->score.name, r->entryCount - shown);
			break;
		}
		shown++;
		const cliEntry* entry = r->entries + i;
		fprintf(f, "%s: id ", r->score.name);
		cliWriteResultIdJson(f, expected->results + entry->expected);
		if (!entry->failure) {
			fputs(": missing\n", f);
			continue;
		}
		fprintf(f, ": %s", entry->text);
		cliWriteEntryMistake(f, r, entry);
		putc('\n', f);
	}
	/* the extra ids, as many lines at most as failures */
	long extraShown = 0;
	for (const char* line = r->extraLinesBuffer; line != NULL && line < r->extraLinesBuffer + r->extraLinesSize;) {
		const char* end = memchr(line, '\n', (size_t)(r->extraLinesBuffer + r->extraLinesSize - line));
		end = end != NULL ? end + 1 : r->extraLinesBuffer + r->extraLinesSize;
		if (maxFailures > 0 && extraShown == maxFailures) {
			fprintf(f, "%s: %ld more extra ids (--max-failures 0 lists them all)\n", r->score.name,
					r->score.extra - extraShown);
			break;
		}
		fwrite(line, 1, (size_t)(end - line), f);
		extraShown++;
		line = end;
	}
	if (r->score.diagnosis != NULL) {
		fprintf(f, "%s: diagnosis: %s\n", r->score.name, r->score.diagnosis);
	}
}

void cliWriteJsonHeader(FILE* f, const cliGradeConfig* cfg, const char* expectedName, long expectedIds)
{
	fputs("{\"ballcast\":\"" BC_VERSION_STRING "\",\"expected\":{\"file\":", f);
	cliWriteJsonString(f, expectedName);
	fputs(",\"ids\":", f);
	cliWriteInt(f, expectedIds);
	fputs("},\"tolerances\":{\"alpha\":", f);
	cliWriteNumber(f, cfg->alphaTol);
	fputs(",\"alpha_rel\":", f);
	cliWriteNumber(f, cfg->alphaRel);
	fputs(",\"normal_degrees\":", f);
	cliWriteNumber(f, cfg->normalTol);
	fputs(",\"point\":", f);
	cliWriteNumber(f, cfg->pointTol);
	fputs("}", f);
	if (cfg->normalConvention != 0 || cfg->acceptNormals != 0) {
		fputs(",\"normals\":{\"convention\":", f);
		if (cfg->normalConvention != 0) {
			fprintf(f, "\"%s\"", normalsName(cfg->normalConvention));
		} else {
			fputs("null", f);
		}
		fputs(",\"accepted\":[", f);
		const char* separator = "";
		for (unsigned bit = 1; bit <= cli_normalsAverage; bit <<= 1) {
			if ((cfg->acceptNormals | cfg->normalConvention) & bit) {
				fprintf(f, "%s\"%s\"", separator, normalsName(bit));
				separator = ",";
			}
		}
		fputs("]}", f);
	}
	fputs(",\n\"files\":[", f);
}

static void writeJsonCounts(FILE* f, const cliFileScore* s, bool first)
{
	fputs(first ? "\n{\"file\":" : ",\n{\"file\":", f);
	cliWriteJsonString(f, s->name);
	fputs(",\"records\":", f);
	cliWriteInt(f, s->records);
	fputs(",\"passed\":", f);
	cliWriteInt(f, s->passed);
	fputs(",\"failed\":", f);
	cliWriteInt(f, s->failed);
	fputs(",\"missing\":", f);
	cliWriteInt(f, s->missing);
	fputs(",\"extra\":", f);
	cliWriteInt(f, s->extra);
	fputs(",\"score\":", f);
	cliWriteNumber(f, s->score);
}

void cliWriteJsonFile(FILE* f, const cliFileReport* r, const cliResultSet* expected,
						  const cliResultSet* actual, bool first)
{
	writeJsonCounts(f, &r->score, first);
	if (r->note[0] != '\0') {
		fputs(",\"note\":", f);
		cliWriteJsonString(f, r->note);
	}

	if (r->unexplained) {
		fputs(",\"diagnosis_note\":\"" CLI_UNEXPLAINED "\"", f);
	}
	fputs(",\"diagnosis\":[", f);
	if (r->pair[0] >= 0) {
		fprintf(f, "{\"mistake\":\"%s + %s\",\"mistakes\":[\"%s\",\"%s\"],\"explains\":%ld,\"of\":%ld}",
				cliMistakeNames[r->pair[0]], cliMistakeNames[r->pair[1]], cliMistakeNames[r->pair[0]],
				cliMistakeNames[r->pair[1]], r->pairCount, r->diagnosed);
	}
	for (int k = 0; k < r->shown; ++k) {
		fprintf(f, "%s{\"mistake\":\"%s\",\"explains\":%ld,\"of\":%ld,\"contradicted_by\":%ld}", k > 0 ? "," : "",
				cliMistakeNames[r->order[k]], r->counts[r->order[k]], r->diagnosed, r->contradictions[r->order[k]]);
	}
	fputs("],\"failures\":[", f);
	long n = 0;
	for (long i = 0; i < r->entryCount; ++i) {
		const cliEntry* entry = r->entries + i;
		if (!entry->failure) {
			continue;
		}
		fputs(n++ > 0 ? ",{\"id\":" : "{\"id\":", f);
		cliWriteResultIdJson(f, expected->results + entry->expected);
		fputs(",\"line\":", f);
		if (entry->actual >= 0) {
			cliWriteInt(f, actual->results[entry->actual].line);
		} else {
			fputs("null", f);
		}
		int m = cliEntryMistake(r, entry);
		if (m == cli_mistakeCount) {
			fprintf(f, ",\"mistake\":\"%s + %s\"", cliMistakeNames[r->pair[0]], cliMistakeNames[r->pair[1]]);
		} else if (m >= 0) {
			fprintf(f, ",\"mistake\":\"%s\"", cliMistakeNames[m]);
		}
		fputs(",\"differences\":[", f);
		fputs(entry->json, f);
		fputs("]}", f);
	}
	fputs("],\"missing_ids\":[", f);
	n = 0;
	for (long i = 0; i < r->entryCount; ++i) {
		if (!r->entries[i].failure) {
			if (n++ > 0) {
				putc(',', f);
			}
			cliWriteResultIdJson(f, expected->results + r->entries[i].expected);
		}
	}
	fputs("],\"extra_ids\":[", f);
	fwrite(r->extraBuffer, 1, r->extraSize, f);
	fputs("]", f);
	/* how it was read and matched, and whether a teacher should look (a
	 * file in cast's own shape, matched by its ids, has nothing to add) */
	bool plain = (r->reading == NULL || r->reading->plain) && (r->ids == NULL || strcmp(r->ids, "exact") == 0) &&
				 r->score.review == NULL;
	if (!plain) {
		if (r->reading != NULL && r->reading->json != NULL) {
			fputs(",\"reading\":", f);
			fputs(r->reading->json, f);
		}
		if (r->ids != NULL) {
			fprintf(f, ",\"ids\":\"%s\"", r->ids);
		}
		fputs(",\"review\":", f);
		if (r->score.review != NULL) {
			cliWriteJsonString(f, r->score.review);
		} else {
			fputs("null", f);
		}
	}
	fputs("}", f);
}

/* An unreadable submission in the JSON report. */
void cliWriteJsonUnreadable(FILE* f, const cliFileScore* s, bool first)
{
	writeJsonCounts(f, s, first);
	fputs(",\"unreadable\":", f);
	cliWriteJsonString(f, s->diagnosis);
	fputs(",\"diagnosis\":[],\"failures\":[],\"missing_ids\":[],\"extra_ids\":[]}", f);
}

static int digitCount(long value)
{
	int n = 1;
	while (value >= 10) {
		value /= 10;
		n++;
	}
	return n;
}

/* The score table, columns aligned: file left, counts right, score last. */
void cliWriteTextTable(FILE* f, const cliFileScore* scores, int count)
{
	static const char* const headers[4] = { "passed", "failed", "missing", "extra" };
	int fileWidth = 4;
	int widths[4];
	for (int k = 0; k < 4; ++k) {
		widths[k] = (int)strlen(headers[k]);
	}
	for (int i = 0; i < count; ++i) {
		const cliFileScore* s = scores + i;
		long values[4] = { s->passed, s->failed, s->missing, s->extra };
		int n = (int)strlen(s->name);
		fileWidth = n > fileWidth ? n : fileWidth;
		for (int k = 0; k < 4; ++k) {
			int w = digitCount(values[k]);
			widths[k] = w > widths[k] ? w : widths[k];
		}
	}
	fprintf(f, "%-*s", fileWidth, "file");
	for (int k = 0; k < 4; ++k) {
		fprintf(f, "  %*s", widths[k], headers[k]);
	}
	fputs("  score\n", f);
	for (int i = 0; i < count; ++i) {
		const cliFileScore* s = scores + i;
		long values[4] = { s->passed, s->failed, s->missing, s->extra };
		fprintf(f, "%-*s", fileWidth, s->name);
		for (int k = 0; k < 4; ++k) {
			fprintf(f, "  %*ld", widths[k], values[k]);
		}
		fputs("  ", f);
		cliWriteRoundedScore(f, s->score);
		putc('\n', f);
	}
}

void cliWriteCsvTable(FILE* f, const cliFileScore* scores, int count)
{
	fputs("file,records,passed,failed,missing,extra,score,diagnosis,review\n", f);
	for (int i = 0; i < count; ++i) {
		const cliFileScore* s = scores + i;
		cliWriteCsvField(f, s->name);
		fprintf(f, ",%ld,%ld,%ld,%ld,%ld,", s->records, s->passed, s->failed, s->missing, s->extra);
		cliWriteNumber(f, s->score);
		putc(',', f);
		cliWriteCsvField(f, s->diagnosis != NULL ? s->diagnosis : "");
		putc(',', f);
		cliWriteCsvField(f, s->review != NULL ? s->review : "");
		putc('\n', f);
	}
}

/* ------------------------------------------------------------ JUnit, Gradescope */

/* Each record of EXPECTED (its first occurrence of an id) with its entry
 * in r, or NULL when it passed: entries are in EXPECTED's order. */
typedef struct cliRecordWalk {
	const cliFileReport* r;
	const long* first;
	long next; /* the next entry */
} cliRecordWalk;

/* The entry of expected record i, or NULL when it passed. */
static const cliEntry* entryOf(cliRecordWalk* w, long i)
{
	while (w->next < w->r->entryCount && w->r->entries[w->next].expected < i) {
		w->next++;
	}
	if (w->next < w->r->entryCount && w->r->entries[w->next].expected == i) {
		return w->r->entries + w->next;
	}
	return NULL;
}

/* The id of a result as text: a string's own characters, a number's
 * text (owned by the caller; NULL when out of memory). */
static char* idText(const cliResult* result)
{
	if (result->id != NULL && result->idKind == cli_idString) {
		return cliCopyText(result->id, strlen(result->id));
	}
	char* text = NULL;
	size_t size = 0;
	FILE* f = open_memstream(&text, &size);
	if (f == NULL) {
		return NULL;
	}
	cliWriteResultIdJson(f, result);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* A failing entry's message: what differs and its mistake, or "missing". */
static char* entryMessage(const cliFileReport* r, const cliEntry* entry)
{
	char* text = NULL;
	size_t size = 0;
	FILE* f = open_memstream(&text, &size);
	if (f == NULL) {
		return NULL;
	}
	if (!entry->failure) {
		fputs("missing", f);
	} else {
		fputs(entry->text, f);
		cliWriteEntryMistake(f, r, entry);
	}
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

void cliWriteJunitSuite(FILE* f, const cliFileReport* r, const cliResultSet* expected, const long* first)
{
	long tests = 0;
	for (long i = 0; i < expected->count; ++i) {
		tests += first[i] == i;
	}
	fputs("<testsuite name=\"", f);
	cliSvgWriteText(f, r->score.name);
	long extra = r->score.extra > 0 ? 1 : 0; /* one testcase for the extra ids */
	fprintf(f, "\" tests=\"%ld\" failures=\"%ld\" errors=\"0\">\n", tests + extra,
			r->score.failed + r->score.missing + extra);
	if (r->score.diagnosis != NULL || r->note[0] != '\0' || r->score.review != NULL) {
		fputs("<properties>", f);
		if (r->score.review != NULL) {
			fputs("<property name=\"review\" value=\"", f);
			cliSvgWriteText(f, r->score.review);
			fputs("\"/>", f);
		}
		if (r->score.diagnosis != NULL) {
			fputs("<property name=\"diagnosis\" value=\"", f);
			cliSvgWriteText(f, r->score.diagnosis);
			fputs("\"/>", f);
		}
		if (r->note[0] != '\0') {
			fputs("<property name=\"note\" value=\"", f);
			cliSvgWriteText(f, r->note);
			fputs("\"/>", f);
		}
		fputs("</properties>\n", f);
	}
	cliRecordWalk walk = { r, first, 0 };
	for (long i = 0; i < expected->count; ++i) {
		if (first[i] != i) {
			continue;
		}
		char* id = idText(expected->results + i);
		fputs("<testcase classname=\"", f);
		cliSvgWriteText(f, r->score.name);
		fputs("\" name=\"id ", f);
		cliSvgWriteText(f, id != NULL ? id : "");
		free(id);
		const cliEntry* entry = entryOf(&walk, i);
		if (entry == NULL) {
			fputs("\"/>\n", f);
			continue;
		}
		char* message = entryMessage(r, entry);
		fputs("\"><failure type=\"", f);
		fputs(entry->failure ? "differs" : "missing", f);
		fputs("\" message=\"", f);
		cliSvgWriteText(f, message != NULL ? message : "");
		fputs("\"/></testcase>\n", f);
		free(message);
	}
	if (r->score.extra > 0) {
		/* the extra ids, as the JSON list has them */
		fputs("<testcase classname=\"", f);
		cliSvgWriteText(f, r->score.name);
		fputs("\" name=\"extra ids\"><failure type=\"extra\" message=\"ids EXPECTED does not have: ", f);
		char* ids = cliCopyText(r->extraBuffer != NULL ? r->extraBuffer : "", r->extraSize);
		cliSvgWriteText(f, ids != NULL ? ids : "");
		free(ids);
		fputs("\"/></testcase>\n", f);
	}
	fputs("</testsuite>\n", f);
}

void cliWriteJunitUnreadable(FILE* f, const char* name, const char* reason)
{
	fputs("<testsuite name=\"", f);
	cliSvgWriteText(f, name);
	fputs("\" tests=\"1\" failures=\"0\" errors=\"1\">\n<testcase classname=\"", f);
	cliSvgWriteText(f, name);
	fputs("\" name=\"read\"><error type=\"unreadable\" message=\"", f);
	cliSvgWriteText(f, reason);
	fputs("\"/></testcase>\n</testsuite>\n", f);
}

void cliWriteJunitDocument(FILE* f, const char* title, const cliFileScore* scores, int count, const char* suites,
						   size_t suitesSize)
{
	long tests = 0;
	long failures = 0;
	long errors = 0;
	for (int k = 0; k < count; ++k) {
		const cliFileScore* s = scores + k;
		long extra = s->extra > 0 ? 1 : 0;
		tests += s->unreadable ? 1 : s->passed + s->failed + s->missing + extra;
		failures += s->unreadable ? 0 : s->failed + s->missing + extra;
		errors += s->unreadable ? 1 : 0;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"", f);
	cliSvgWriteText(f, title);
	fprintf(f, "\" tests=\"%ld\" failures=\"%ld\" errors=\"%ld\">\n", tests, failures, errors);
	fwrite(suites, 1, suitesSize, f);
	fputs("</testsuites>\n", f);
}

void cliWriteGradescope(FILE* f, const cliFileReport* r, const cliResultSet* expected, const long* first,
						const char* unreadable)
{
	long ids = 0;
	for (long i = 0; i < expected->count; ++i) {
		ids += first[i] == i;
	}
	fputs("{\"score\":", f);
	cliWriteInt(f, r != NULL ? r->score.passed : 0);
	fputs(",\"max_score\":", f);
	cliWriteInt(f, ids);
	fputs(",\"output\":", f);
	if (unreadable != NULL) {
		cliWriteJsonString(f, unreadable);
	} else {
		char line[160];
		snprintf(line, sizeof line, "%ld passed, %ld failed, %ld missing, %ld extra%s", r->score.passed,
				 r->score.failed, r->score.missing, r->score.extra, r->score.diagnosis != NULL ? "; diagnosis: " : "");
		char* text = NULL;
		size_t size = 0;
		FILE* m = open_memstream(&text, &size);
		if (m != NULL) {
			fputs(line, m);
			fputs(r->score.diagnosis != NULL ? r->score.diagnosis : "", m);
			if (r->note[0] != '\0') {
				fprintf(m, "\nnote: %s", r->note);
			}
			if (r->score.review != NULL) {
				fprintf(m, "\nreview: %s", r->score.review);
			}
			fclose(m);
		}
		cliWriteJsonString(f, text != NULL ? text : line);
		free(text);
	}
	fputs(",\"visibility\":\"visible\",\"tests\":[", f);
	cliRecordWalk walk = { r, first, 0 };
	long n = 0;
	for (long i = 0; i < expected->count; ++i) {
		if (first[i] != i) {
			continue;
		}
		const cliEntry* entry = r != NULL ? entryOf(&walk, i) : NULL;
		bool passed = r != NULL && entry == NULL;
		char* id = idText(expected->results + i);
		char* name = NULL;
		size_t size = 0;
		FILE* m = open_memstream(&name, &size);
		if (m != NULL) {
			fprintf(m, "id %s", id != NULL ? id : "");
			fclose(m);
		}
		free(id);
		fputs(n++ > 0 ? ",\n{\"name\":" : "\n{\"name\":", f);
		cliWriteJsonString(f, name != NULL ? name : "");
		free(name);
		fprintf(f, ",\"score\":%d,\"max_score\":1,\"output\":", passed ? 1 : 0);
		char* message = entry != NULL ? entryMessage(r, entry) : NULL;
		cliWriteJsonString(f, passed ? "" : message != NULL ? message : unreadable != NULL ? "unreadable" : "");
		free(message);
		fputs(",\"visibility\":\"visible\"}", f);
	}
	fputs("]}\n", f);
}

cliReportFormat cliReportFromPath(const char* path)
{
	const char* dot = path != NULL ? strrchr(path, '.') : NULL;
	if (dot != NULL && (strcmp(dot, ".html") == 0 || strcmp(dot, ".htm") == 0)) {
		return cli_reportHtml;
	}
	cliOutputFormat named = cliFormatFromPath(path, cli_outputNdjson);
	return named == cli_outputJson ? cli_reportJson : named == cli_outputCsv ? cli_reportCsv : cli_reportText;
}
