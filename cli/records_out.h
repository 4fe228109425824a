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
#include "trajectories.h"

/* The most columns a record may have (a bit each in cliRecordsLayout.off). */
#define CLI_RECORDS_MAX_COLUMNS 64

/* Room for the columns' keys, each as ,"key": (a longer key is cut). */
#define CLI_RECORDS_KEY_TEXT 2048

/* What a value is, and so how each format writes it. */
typedef enum cliValueKind {
	cli_valueAbsent = 0, /* nothing: no JSON member, empty CSV cells (a zeroed cliValue) */
	cli_valueNull,       /* JSON null, empty CSV cells */
	cli_valueNumber,     /* a double, in the shortest text that reads back the same */
	cli_valueInt,        /* an integer */
	cli_valueBool,       /* true or false */
	cli_valueText,       /* a string: JSON-escaped, CSV-quoted where it must be */
	cli_valueName,       /* a word of a fixed vocabulary (a feature, a state): quoted in JSON, bare in CSV */
	cli_valueId,         /* a record's id: its number as written, its string, or its index */
	cli_valueVec3,       /* JSON [x,y,z], CSV three cells */
	cli_valueInts,       /* JSON [a,b,...], CSV a cell each, then empty cells to the column's count */
	cli_valueVecs,       /* JSON [[x,y,z],...], CSV three cells each, then empty cells to the column's count */
	cli_valueContacts,   /* tied contacts: JSON [{"triangle","feature","vertices","alpha","normal"},...],
						  * CSV one cell "triangle:feature triangle:feature ..." */
	cli_valueObject      /* JSON {members} (the head and the summary; not in a CSV row) */
} cliValueKind;

typedef struct cliField cliField;

/* One value of a record, of the head or of the summary. Pointers are
 * borrowed: what they point to must live until the value is written. */
typedef struct cliValue {
	cliValueKind kind;
	union {
		double number;           /* cli_valueNumber */
		long long integer;       /* cli_valueInt */
		bool flag;               /* cli_valueBool */
		const char* text;        /* cli_valueText, cli_valueName (NUL-terminated UTF-8) */
		const cliRecord* record; /* cli_valueId: its idKind, id and index */
		bcVec3 vec;              /* cli_valueVec3 */
		struct {
			const int32_t* items;
			int count;
		} ints;                  /* cli_valueInts */
		struct {
			const bcVec3* items;
			int count;
		} vecs;                  /* cli_valueVecs */
		struct {
			const bcContact* items;
			int count;
		} contacts;              /* cli_valueContacts */
		struct {
			const cliField* items;
			int count;
		} object;                /* cli_valueObject */
	};
} cliValue;

/* A named value of the head or the summary (a JSON member). */
struct cliField {
	const char* key; /* written as it is: letters, digits and '_' only */
	cliValue value;
};

/* One column of the records: its JSON key and its CSV header cells. */
typedef struct cliColumn {
	const char* key; /* JSON member name, written as it is (letters, digits and '_'; under 200 bytes) */
	const char* csv; /* its CSV header cells, comma-separated (as many as the values fill);
					  * NULL: one cell named key */
} cliColumn;

/* A column of three cells named KEY_x, KEY_y, KEY_z (a vector). */
#define CLI_VEC3_COLUMN(key) { key, key "_x," key "_y," key "_z" }

/* What the records of a command look like. */
typedef struct cliRecordsLayout {
	/* The JSON document's member holding the records ("results", "events");
	 * NULL: the records are a bare JSON array, no head and no summary. */
	const char* list;
	const cliColumn* columns; /* borrowed: must outlive the writer */
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
						 const cliRecordsLayout* layout, const cliField* head, int headCount);

/* Append one record: values[k] for column k (columnCount of them; absent
 * ones are zeroed). position is the record's 0-based place in the output
 * (JSON separates records from the second on). */
void cliRecordsOut_Record(const cliRecordsOut* writer, cliBuffer* out, long position, const cliValue* values);

/* Append a record that could not be answered: its id (column "id") and the
 * problem (column "error"), every other column absent. */
void cliRecordsOut_Error(const cliRecordsOut* writer, cliBuffer* out, long position, const cliRecord* record,
						 const char* error);

/* Append the end, after written records: JSON closes the list and, in a
 * document, adds "summary":{summary[0 .. summaryCount)}; nothing for the
 * other formats. */
void cliRecordsOut_End(const cliRecordsOut* writer, cliBuffer* out, long written, const cliField* summary,
					   int summaryCount);

/* Does the format write the head and the summary? (JSON does; a command
 * tells on standard error what the others leave out.) */
bool cliRecordsOut_HasSummary(const cliRecordsOut* writer);

/* A record's id as a JSON value (its number text, its string, or its
 * index), and as a CSV cell: what a cli_valueId writes. */
void cliAppendRecordIdJson(cliBuffer* out, const cliRecord* record);
void cliAppendRecordIdCsv(cliBuffer* out, const cliRecord* record);

/* The values, made. */
static inline cliValue cliValue_Null(void)
{
	cliValue v = { .kind = cli_valueNull };
	return v;
}

static inline cliValue cliValue_Number(double number)
{
	cliValue v = { .kind = cli_valueNumber, .number = number };
	return v;
}

static inline cliValue cliValue_Int(long long integer)
{
	cliValue v = { .kind = cli_valueInt, .integer = integer };
	return v;
}

static inline cliValue cliValue_Bool(bool flag)
{
	cliValue v = { .kind = cli_valueBool, .flag = flag };
	return v;
}

/* text is borrowed (as every pointer below). */
static inline cliValue cliValue_Text(const char* text)
{
	cliValue v = { .kind = cli_valueText, .text = text };
	return v;
}

static inline cliValue cliValue_Name(const char* name)
{
	cliValue v = { .kind = cli_valueName, .text = name };
	return v;
}

static inline cliValue cliValue_Id(const cliRecord* record)
{
	cliValue v = { .kind = cli_valueId, .record = record };
	return v;
}

static inline cliValue cliValue_Vec3(bcVec3 vec)
{
	cliValue v = { .kind = cli_valueVec3, .vec = vec };
	return v;
}

static inline cliValue cliValue_Ints(const int32_t* items, int count)
{
	cliValue v = { .kind = cli_valueInts, .ints = { items, count } };
	return v;
}

static inline cliValue cliValue_Vecs(const bcVec3* items, int count)
{
	cliValue v = { .kind = cli_valueVecs, .vecs = { items, count } };
	return v;
}

static inline cliValue cliValue_Contacts(const bcContact* items, int count)
{
	cliValue v = { .kind = cli_valueContacts, .contacts = { items, count } };
	return v;
}

static inline cliValue cliValue_Object(const cliField* items, int count)
{
	cliValue v = { .kind = cli_valueObject, .object = { items, count } };
	return v;
}

#endif
