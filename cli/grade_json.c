/* grade_json.c - the JSON report (cliJsonReport, grade_report.h): one
 * document with the expected file, the tolerances and the normals judged
 * by, then per file its counts, score, notes, diagnosis, every failure
 * with each difference as data and in words, its missing and extra ids,
 * and how it was read (reading, ids, review) when not cast's own shape. */
#include <stdlib.h>

#include "grade_mistakes.h"
#include "grade_report.h"
#include "output.h"
#include "results_read.h"

/* The document up to its "files" list. */
static void writeBegin(cliReport* report)
{
	FILE* f = report->out;
	const cliGradeConfig* cfg = report->cfg;
	fputs("{\"ballcast\":\"" BC_VERSION_STRING "\",\"expected\":{\"file\":", f);
	cliWriteJsonString(f, report->expectedName);
	cliWriteIntMember(f, "ids", report->ids);
	if (report->notGraded > 0) {
		/* the teacher's bad records */
		fputs(",\"not_graded\":[", f);
		for (long i = 0, n = 0; i < report->expected->count; ++i) {
			if (cfg->notGraded[i]) {
				fputs(n++ > 0 ? "," : "", f);
				cliWriteResultIdJson(f, report->expected->results + i);
			}
		}
		putc(']', f);
	}
	fputs("},\"tolerances\":{\"alpha\":", f);
	cliWriteNumber(f, cfg->alphaTol);
	cliWriteNumberMember(f, "alpha_rel", cfg->alphaRel);
	cliWriteNumberMember(f, "normal_degrees", cfg->normalTol);
	cliWriteNumberMember(f, "point", cfg->pointTol);
	fputs("}", f);
	if (cfg->normalConvention != 0 || cfg->acceptNormals != 0) {
		fputs(",\"normals\":{\"convention\":", f);
		if (cfg->normalConvention != 0) {
			fprintf(f, "\"%s\"", cliNormalsName(cfg->normalConvention));
		} else {
			fputs("null", f);
		}
		fputs(",\"accepted\":[", f);
		const char* separator = "";
		for (unsigned bit = 1; bit <= cli_normalsAverage; bit <<= 1) {
			if ((cfg->acceptNormals | cfg->normalConvention) & bit) {
				fprintf(f, "%s\"%s\"", separator, cliNormalsName(bit));
				separator = ",";
			}
		}
		fputs("]}", f);
	}
	fputs(",\n\"files\":[", f);
}

/* A file's element up to its score, and its note. */
static void writeCounts(cliReport* report, const cliFileReport* r)
{
	FILE* f = report->out;
	const cliFileScore* s = &r->score;
	fputs(report->files == 0 ? "\n{\"file\":" : ",\n{\"file\":", f);
	cliWriteJsonString(f, s->name);
	cliWriteIntMember(f, "records", s->records);
	cliWriteIntMember(f, "passed", s->passed);
	cliWriteIntMember(f, "failed", s->failed);
	cliWriteIntMember(f, "missing", s->missing);
	cliWriteIntMember(f, "extra", s->extra);
	cliWriteNumberMember(f, "score", s->score);
	if (r->noteCount > 0) {
		char* note = cliNotesText(r);
		fputs(",\"note\":", f);
		cliWriteJsonString(f, note != NULL ? note : "");
		free(note);
	}
}

/* One difference: its field, the values as data when it has them, and
 * the words. */
static void writeDiff(FILE* f, const cliDiff* d)
{
	fputs("{\"field\":", f);
	cliWriteJsonString(f, d->field);
	if (d->reason == cli_diffValue) {
		fputs(",\"actual\":", f);
		cliWriteValueJson(f, &d->actual);
		fputs(",\"expected\":", f);
		cliWriteValueJson(f, &d->expected);
		if (d->measure != NULL) {
			cliWriteNumberMember(f, "difference", d->difference);
			cliWriteNumberMember(f, "tolerance", d->tolerance);
		}
	}
	char* words = NULL;
	size_t size = 0;
	FILE* m = open_memstream(&words, &size);
	if (m != NULL) {
		cliWriteDiff(m, d);
		fclose(m);
	}
	fputs(",\"message\":", f);
	cliWriteJsonString(f, words != NULL ? words : "");
	free(words);
	putc('}', f);
}

/* How the file was read and matched, and whether a teacher should look:
 * "reading" (the reader's account as data), "ids" (exact, numeric,
 * position, none), "review" (why, or null); nothing for a file in cast's
 * own shape matched by its ids. */
static void writeReading(FILE* f, const cliFileReport* r)
{
	if (!cliFileReport_ReadingToSay(r)) {
		return;
	}
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

static void writeFile(cliReport* report, const cliFileReport* r, const cliResultSet* actual)
{
	FILE* f = report->out;
	writeCounts(report, r);
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
		cliWriteResultIdJson(f, report->expected->results + entry->expected);
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
		for (int k = 0; k < entry->diffCount; ++k) {
			if (k > 0) {
				putc(',', f);
			}
			writeDiff(f, entry->diffs + k);
		}
		fputs("]}", f);
	}
	fputs("],\"missing_ids\":[", f);
	n = 0;
	for (long i = 0; i < r->entryCount; ++i) {
		if (!r->entries[i].failure) {
			if (n++ > 0) {
				putc(',', f);
			}
			cliWriteResultIdJson(f, report->expected->results + r->entries[i].expected);
		}
	}
	fputs("],\"extra_ids\":[", f);
	for (long k = 0; k < r->extraCount; ++k) {
		if (k > 0) {
			putc(',', f);
		}
		cliWriteResultIdJson(f, actual->results + r->extras[k]);
	}
	fputs("]", f);
	writeReading(f, r);
	putc('}', f);
}

static void writeUnreadable(cliReport* report, const cliFileReport* r)
{
	FILE* f = report->out;
	writeCounts(report, r);
	fputs(",\"unreadable\":", f);
	cliWriteJsonString(f, r->score.diagnosis != NULL ? r->score.diagnosis : "unreadable");
	fputs(",\"diagnosis\":[],\"failures\":[],\"missing_ids\":[],\"extra_ids\":[]}", f);
}

static void writeEnd(cliReport* report, const cliFileScore* scores, int count)
{
	(void)scores;
	fputs(count > 0 ? "\n]}\n" : "]}\n", report->out);
}

const cliReportWriter cliJsonReport = { "json", ".json ", false, writeBegin, writeFile, writeUnreadable, writeEnd };
