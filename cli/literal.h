/* literal.h - values as programs print them: JSON, and the literals that
 * Python (repr, print of a dict or a list), JavaScript, Java and Kotlin
 * (toString of a record or a data class), Rust (Debug), Go (%v, %+v), C
 * (an initialiser, gdb's print) and Ruby (inspect) write. One tolerant
 * grammar, a superset of JSON, read into a tree that knows the place of
 * every value, for the submissions grade reads (table_json.c).
 *
 * The grammar: a value is a container, a quoted string, a number or a bare
 * word. Containers open with '{', '[' or '(' (after a type name or not:
 * Result{...}, Result(...), Result { ... }, array([...])) and close with
 * the matching bracket; their items are separated by ',' or ';' or by
 * white space alone (Go). An item is "KEY SEP value" (SEP ':', '=', '=>',
 * ':='; KEY a string, a word, a number, a C member .x or a Ruby symbol :x)
 * or a value alone: a container whose items all have keys is an object,
 * one with none a list (a '{' holding nothing is an object). Strings are
 * "..." (JSON's escapes) or '...' (Python's), with Python's prefixes
 * b, r, u, f. Numbers: JSON's, and +1, .5, 5., 1D3 (Fortran), nan, inf,
 * Infinity in any case. Words: null, None, nil, NULL and undefined are
 * null; true and false in any case are booleans; anything else (t001,
 * FACE, Feature.FACE) is a word. Comments // and / * * / are skipped. */
#ifndef BC_LITERAL_H
#define BC_LITERAL_H

#include <stdbool.h>
#include <stddef.h>

#include "ballcast.h"

typedef enum cliLitKind {
	cli_litNull = 0, /* null, None, nil, NULL, undefined */
	cli_litBool,     /* true or false in any case */
	cli_litNumber,   /* text: the number as written */
	cli_litString,   /* text: the decoded string */
	cli_litWord,     /* text: a bare word */
	cli_litList,     /* children without keys */
	cli_litObject    /* children with keys */
} cliLitKind;

/* One value of the tree (owned by the parser's arena). */
typedef struct cliLit cliLit;
struct cliLit {
	cliLitKind kind;
	int count;           /* children (lists, objects) */
	cliLit* first;       /* the first child; each child's next is its sibling */
	cliLit* next;
	const char* key;     /* a member's decoded key (NUL terminated), or NULL */
	const char* text;    /* a scalar's text (NUL terminated); a container's type name ("Result") or "" */
	size_t length;       /* text's length */
	size_t begin, end;   /* the value's bytes in the source, [begin, end) */
	long line, column;   /* where the value starts (1-based, byte column) */
	long keyLine, keyColumn;
	bool boolean;        /* cli_litBool */
	bool hasNul;         /* a string held \u0000 (its C string is cut short) */
	bool keyHasNul;      /* the key held \u0000 */
	bool lazy;           /* a list skipped, not parsed (cliLitParser.lazyDepth): no children */
	char open;           /* a container's bracket: '{', '[' or '(' */
};

/* What a parse met that JSON has not (cliLitParser.used bits), for the
 * note on how a file was read. */
enum {
	cli_litNonFinite = 1 << 0,    /* NaN, Infinity, nan, inf */
	cli_litSingleQuotes = 1 << 1, /* '...' strings */
	cli_litBareWords = 1 << 2,    /* unquoted keys or words */
	cli_litPython = 1 << 3,       /* True, False, None */
	cli_litEquals = 1 << 4,       /* key=value, key => value */
	cli_litTypeNames = 1 << 5,    /* Result{...}, Result(...) */
	cli_litParens = 1 << 6,       /* ( ... ) tuples */
	cli_litLooseCommas = 1 << 7,  /* a trailing comma, ';', or none between items */
	cli_litComments = 1 << 8,     /* // or / * * / comments */
	cli_litLooseNumbers = 1 << 9  /* +1, .5, 5., 1D3 */
};

/* Where a parse is in its source text: offset, line and the offset the
 * line starts at. */
typedef struct cliLitCursor {
	const char* text;
	size_t length;
	size_t pos;
	long line;
	size_t lineStart;
} cliLitCursor;

/* Start a cursor at text[0] (line 1, column 1). */
void cliLitCursor_Init(cliLitCursor* c, const char* text, size_t length);

/* Skip white space and comments. */
void cliLitCursor_SkipSpace(cliLitCursor* c);

/* The column of the cursor (1-based, bytes). */
static inline long cliLitCursor_Column(const cliLitCursor* c)
{
	return (long)(c->pos - c->lineStart) + 1;
}

/* Memory handed out in blocks and freed all at once: the values of a
 * parse, the cells of a table's rows. Zero-initialise it. */
typedef struct cliArena {
	struct cliArenaBlock* blocks;
	bool noMemory; /* an allocation failed */
} cliArena;

/* size bytes, aligned for any type; NULL (noMemory set) when out of
 * memory. */
void* cliArena_Alloc(cliArena* arena, size_t size);

/* A NUL-terminated copy of text[0 .. length), or NULL. */
char* cliArena_Copy(cliArena* arena, const char* text, size_t length);

/* Free everything handed out, keeping the first block for reuse. */
void cliArena_Reset(cliArena* arena);

/* Free every block. */
void cliArena_Destroy(cliArena* arena);

/* A parser: its values' arena and what the values met. */
typedef struct cliLitParser {
	cliArena arena;
	unsigned used; /* cli_lit* bits of what the values parsed met */
	int depth;
	/* Lists opened at this depth (1: the members of the value parsed) are
	 * skipped, not parsed: they come back lazy, with their place only (a
	 * document's array of a million results is then walked element by
	 * element). 0: none. */
	int lazyDepth;
} cliLitParser;

/* Containers nested deeper than this are refused (a stack the input cannot
 * exhaust). */
#define CLI_LIT_MAX_DEPTH 64

/* Free every value parsed so far (used is kept). */
void cliLitParser_Reset(cliLitParser* p);

/* Free what the parser holds (a zeroed parser is a new one). */
void cliLitParser_Destroy(cliLitParser* p);

/* Parse one value at the cursor (white space before it skipped), moving
 * the cursor past it. The value, or NULL with error filled (its line,
 * column and a message: "expected a value", "unclosed '{' (opened at
 * 3:1)"; bc_errorNoMemory when out of memory). */
cliLit* cliLitParser_Value(cliLitParser* p, cliLitCursor* c, bcError* error);

/* Skip the value at the cursor (white space before it too) without
 * building it: brackets matched, strings skipped. False when the input
 * ends inside it. */
bool cliLitCursor_SkipValue(cliLitCursor* c);

/* Move the cursor n bytes on (counting lines). */
void cliLitCursor_Advance(cliLitCursor* c, size_t n);

/* A cursor at value v of the text c is over (for a lazy list). */
void cliLitCursor_At(cliLitCursor* c, const char* text, size_t length, const cliLit* v);

/* The member of object o keyed key (ASCII case ignored), or NULL. */
const cliLit* cliLit_Member(const cliLit* o, const char* key);

/* Is the value a number, or a list nesting numbers only (a vector)? */
bool cliLit_IsScalar(const cliLit* v);

#endif
