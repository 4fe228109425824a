/* records_out.h - the one writer of answer records: JSON, NDJSON or CSV.
 *
 * Every command that answers records (cast, closest, balls, intersect,
 * simulate) writes the same three things, and only this module knows how
 * each format frames them:
 *  - the beginning: JSON opens a document {"ballcast":VERSION, the head's
 *    members, "LIST":[ ; CSV writes its header row; NDJSON nothing;
 *  - one record: JSON an object in the list, NDJSON an object on a line of
 *    its own, CSV a row;
 *  - the end: JSON closes the list and adds "summary":{...}; the others
 *    nothing.
 * A command describes its records once, as columns (a JSON key and the CSV
 * cells it fills), and gives each record as one value per column. An absent
 * value is no JSON member and empty CSV cells, so JSON objects carry only
 * what applies while CSV rows keep every column. Key order is column order:
 * scripts and diffs depend on it.
 *
 * Text is appended to a cliBuffer (output.h), so records may be formatted on
 * several threads at once and written in order by the caller; a writer is
 * only read after cliRecordsOut_Begin. A new output format changes the
 * format enum (output.h), its name, and records_out.c: no command. */
#ifndef BC_RECORDS_OUT_H
#define BC_RECORDS_OUT_H

#include <stdbool.h>
#include <stdint.h>

#include "ballcast.h"
#include "output.h"
#include "records.h"

/* The most columns a record may have (a bit each in cliRecordsLayout.off). */
#define CLI_RECORDS_MAX_COLUMNS 64

/* Room for the columns' keys, each as ,"key": (a longer key is cut). */
#define CLI_RECORDS_KEY_TEXT 2048

/* What a value is, and so how each format writes it. */
typedef enum cliOutValueKind {
	cli_outAbsent = 0, /* nothing: no JSON member, empty CSV cells (a zeroed cliOutValue) */
	cli_outNull,       /* JSON null, empty CSV cells */
	cli_outNumber,     /* a double, in the shortest text that reads back the same */
	cli_outInt,        /* an integer */
	cli_outBool,       /* true or false */
	cli_outText,       /* a string: JSON-escaped, CSV-quoted where it must be */
	cli_outName,       /* a word of a fixed vocabulary (a feature, a state): quoted in JSON, bare in CSV */
	cli_outId,         /* a record's id: its number as written, its string, or its index */
	cli_outVec3,       /* JSON [x,y,z], CSV three cells */
	cli_outInts,       /* JSON [a,b,...], CSV a cell each, then empty cells to the column's count */
	cli_outVecs,       /* JSON [[x,y,z],...], CSV three cells each, then empty cells to the column's count */
	cli_outContacts,   /* tied contacts: JSON [{"triangle","feature","vertices","alpha","normal"},...],
						* CSV one cell "triangle:feature triangle:feature ..." */
	cli_outObject      /* JSON {members} (the head and the summary; not in a CSV row) */
} cliOutValueKind;

typedef struct cliOutField cliOutField;

/* One value of a record, of the head or of the summary. Pointers are
 * borrowed: what they point to must live until the value is written. */
typedef struct cliOutValue {
	cliOutValueKind kind;
	union {
		double number;           /* cli_outNumber */
		long long integer;       /* cli_outInt */
		bool flag;               /* cli_outBool */
		const char* text;        /* cli_outText, cli_outName (NUL-terminated UTF-8) */
		const cliRecord* record; /* cli_outId: its idKind, id and index */
		bcVec3 vec;              /* cli_outVec3 */
		struct {
			const int32_t* items;
			int count;
		} ints;                  /* cli_outInts */
		struct {
			const bcVec3* items;
			int count;
		} vecs;                  /* cli_outVecs */
		struct {
			const bcContact* items;
			int count;
		} contacts;              /* cli_outContacts */
		struct {
			const cliOutField* items;
			int count;
		} object;                /* cli_outObject */
	};
} cliOutValue;

/* A named value of the head or the summary (a JSON member). */
struct cliOutField {
	const char* key; /* written as it is: letters, digits and '_' only */
	cliOutValue value;
};

/* One column of the records: its JSON key and its CSV header cells. */
typedef struct cliOutColumn {
	const char* key; /* JSON member name, written as it is (letters, digits and '_'; under 200 bytes) */
	const char* csv; /* its CSV header cells, comma-separated (as many as the values fill);
					  * NULL: one cell named key */
} cliOutColumn;

/* A column of three cells named KEY_x, KEY_y, KEY_z (a vector). */
#define CLI_OUT_VEC3_COLUMN(key) { key, key "_x," key "_y," key "_z" }

/* What the records of a command look like. */
typedef struct cliRecordsLayout {
	/* The JSON document's member holding the records ("results", "events");
	 * NULL: the records are a bare JSON array, no head and no summary. */
	const char* list;
	const cliOutColumn* columns; /* borrowed: must outlive the writer */
	int columnCount;          /* at most CLI_RECORDS_MAX_COLUMNS */
	/* Bit k set: column k is left out everywhere (an option not given); its
	 * values are never read. */
	uint64_t off;
} cliRecordsLayout;

/* A writer: the format and the layout, fixed by cliRecordsOut_Begin. Only
 * read afterwards; nothing to free. */
typedef struct cliRecordsOut {
	cliOutputFormat format;
	cliRecordsLayout layout;
	int idColumn;    /* the column keyed "id", or -1 */
	int errorColumn; /* the column keyed "error", or -1 */
	unsigned char cells[CLI_RECORDS_MAX_COLUMNS]; /* CSV cells of each column */
	/* Column k's JSON member start ,"key": at keyText + keyStart[k], keyLength[k]
	 * bytes (formatted once: a record appends it in one piece). */
	unsigned short keyStart[CLI_RECORDS_MAX_COLUMNS];
	unsigned char keyLength[CLI_RECORDS_MAX_COLUMNS];
	char keyText[CLI_RECORDS_KEY_TEXT];
} cliRecordsOut;

/* Set the writer up for format and layout, and append the beginning to out:
 * JSON {"ballcast":"VERSION", then head[0 .. headCount) as members (nothing
 * with a bare list), then "LIST":[ ; the CSV header row; nothing for
 * NDJSON. head may be NULL when headCount is 0. */
void cliRecordsOut_Begin(cliRecordsOut* writer, cliBuffer* out, cliOutputFormat format,
						 const cliRecordsLayout* layout, const cliOutField* head, int headCount);

/* Append one record: values[k] for column k (columnCount of them; absent
 * ones are zeroed). position is the record's 0-based place in the output
 * (JSON separates records from the second on). */
void cliRecordsOut_Record(const cliRecordsOut* writer, cliBuffer* out, long position, const cliOutValue* values);

/* Append a record that could not be answered: its id (column "id") and the
 * problem (column "error"), every other column absent. */
void cliRecordsOut_Error(const cliRecordsOut* writer, cliBuffer* out, long position, const cliRecord* record,
						 const char* error);

/* Append the end, after written records: JSON closes the list and, in a
 * document, adds "summary":{summary[0 .. summaryCount)}; nothing for the
 * other formats. */
void cliRecordsOut_End(const cliRecordsOut* writer, cliBuffer* out, long written, const cliOutField* summary,
					   int summaryCount);

/* Does the format write the head and the summary? (JSON does; a command
 * tells on standard error what the others leave out.) */
bool cliRecordsOut_HasSummary(const cliRecordsOut* writer);

/* Can a reader use each record of format as it comes (NDJSON lines, CSV
 * rows)? false for a document that is whole or nothing (JSON), which a
 * command stages until the run succeeds. */
bool cliOutputFormat_Streams(cliOutputFormat format);

/* A record's id as a JSON value (its number text, its string, or its
 * index), and as a CSV cell: what a cli_outId writes. */
void cliBuffer_AppendRecordIdJson(cliBuffer* out, const cliRecord* record);
void cliBuffer_AppendRecordIdCsv(cliBuffer* out, const cliRecord* record);

/* A value as compact JSON (an absent value is written null): what the
 * writer puts after a key. */
void cliBuffer_AppendValueJson(cliBuffer* out, const cliOutValue* v);

/* The values, made (a zeroed cliOutValue is absent). */

/* null: JSON null, empty CSV cells. */
static inline cliOutValue cliOutValue_Null(void)
{
	cliOutValue v = { .kind = cli_outNull };
	return v;
}

/* A double, printed to read back the same. */
static inline cliOutValue cliOutValue_Number(double number)
{
	cliOutValue v = { .kind = cli_outNumber, .number = number };
	return v;
}

/* An integer. */
static inline cliOutValue cliOutValue_Int(long long integer)
{
	cliOutValue v = { .kind = cli_outInt, .integer = integer };
	return v;
}

/* true or false. */
static inline cliOutValue cliOutValue_Bool(bool flag)
{
	cliOutValue v = { .kind = cli_outBool, .flag = flag };
	return v;
}

/* A string, escaped or quoted as each format needs; text is borrowed (as
 * every pointer below). */
static inline cliOutValue cliOutValue_Text(const char* text)
{
	cliOutValue v = { .kind = cli_outText, .text = text };
	return v;
}

/* A word of a fixed vocabulary, written as it is (see cli_outName). */
static inline cliOutValue cliOutValue_Name(const char* name)
{
	cliOutValue v = { .kind = cli_outName, .text = name };
	return v;
}

/* The id of record (cliBuffer_AppendRecordIdJson, cliBuffer_AppendRecordIdCsv). */
static inline cliOutValue cliOutValue_Id(const cliRecord* record)
{
	cliOutValue v = { .kind = cli_outId, .record = record };
	return v;
}

/* A vector: [x,y,z], or three CSV cells. */
static inline cliOutValue cliOutValue_Vec3(bcVec3 vec)
{
	cliOutValue v = { .kind = cli_outVec3, .vec = vec };
	return v;
}

/* items[0 .. count): a JSON array, or a CSV cell each (a face's vertices). */
static inline cliOutValue cliOutValue_Ints(const int32_t* items, int count)
{
	cliOutValue v = { .kind = cli_outInts, .ints = { items, count } };
	return v;
}

/* items[0 .. count): a JSON array of vectors, or three CSV cells each. */
static inline cliOutValue cliOutValue_Vecs(const bcVec3* items, int count)
{
	cliOutValue v = { .kind = cli_outVecs, .vecs = { items, count } };
	return v;
}

/* Tied contacts items[0 .. count) (cli_outContacts). */
static inline cliOutValue cliOutValue_Contacts(const bcContact* items, int count)
{
	cliOutValue v = { .kind = cli_outContacts, .contacts = { items, count } };
	return v;
}

/* A JSON object of the members items[0 .. count) (head and summary only). */
static inline cliOutValue cliOutValue_Object(const cliOutField* items, int count)
{
	cliOutValue v = { .kind = cli_outObject, .object = { items, count } };
	return v;
}

#endif
