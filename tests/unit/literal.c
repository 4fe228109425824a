/* literal.c - unit tests for the literals programs print (cli/literal.h):
 * JSON read exactly (strings decoded as JSON decodes them, numbers kept as
 * written, places of every value), and the literals of Python, Java,
 * Kotlin, Rust, Go, C and Ruby read into the same tree; lazy lists, the
 * skip, and the errors with their places. */
#include <check.h>
#include <string.h>

#include "harness.h"
#include "literal.h"

/* Parse text whole; the value must read. */
static const cliLit* parse(cliLitParser* p, const char* text)
{
	cliLitCursor c;
	cliLitCursor_Init(&c, text, strlen(text));
	bcError error;
	const cliLit* v = cliLitParser_Value(p, &c, &error);
	ck_assert_msg(v != NULL, "%s\n%ld:%ld: %s", text, error.line, error.column, error.message);
	return v;
}

/* Parse text that must fail at line:column with message. */
static void assertFails(const char* text, long line, long column, const char* message)
{
	cliLitParser p;
	memset(&p, 0, sizeof p);
	cliLitCursor c;
	cliLitCursor_Init(&c, text, strlen(text));
	bcError error;
	ck_assert_msg(cliLitParser_Value(&p, &c, &error) == NULL, "parsed: %s", text);
	ck_assert_msg(error.line == line && error.column == column, "%s: at %ld:%ld (%s), expected %ld:%ld", text,
				  error.line, error.column, error.message, line, column);
	ck_assert_str_eq(error.message, message);
	cliLitParser_Destroy(&p);
}

START_TEST(jsonExactly)
{
	cliLitParser p;
	memset(&p, 0, sizeof p);
	const cliLit* v = parse(&p, "{\"id\": \"t\\u00e9\\n\\ud83d\\ude00\", \"alpha\": 0.250, \"n\": [0, -1e-3, 1],\n"
								"  \"hit\": true, \"f\": null}");
	ck_assert_int_eq(v->kind, cli_litObject);
	ck_assert_int_eq(v->count, 5);
	ck_assert_uint_eq(p.used, 0); /* nothing JSON has not */
	const cliLit* id = cliLit_Member(v, "id");
	ck_assert_int_eq(id->kind, cli_litString);
	ck_assert_str_eq(id->text, "t\xc3\xa9\n\xf0\x9f\x98\x80");
	const cliLit* alpha = cliLit_Member(v, "ALPHA"); /* keys are found in any case */
	ck_assert_int_eq(alpha->kind, cli_litNumber);
	ck_assert_str_eq(alpha->text, "0.250"); /* as written */
	ck_assert_int_eq(alpha->line, 1);
	ck_assert_int_eq(alpha->column, 42);
	ck_assert_int_eq(alpha->keyColumn, 33);
	const cliLit* n = cliLit_Member(v, "n");
	ck_assert_int_eq(n->kind, cli_litList);
	ck_assert_int_eq(n->count, 3);
	ck_assert_str_eq(n->first->next->text, "-1e-3");
	ck_assert_int_eq(cliLit_Member(v, "hit")->kind, cli_litBool);
	ck_assert(cliLit_Member(v, "hit")->boolean);
	ck_assert_int_eq(cliLit_Member(v, "hit")->line, 2);
	ck_assert_int_eq(cliLit_Member(v, "f")->kind, cli_litNull);
	ck_assert_ptr_null(cliLit_Member(v, "none"));
	/* an escaped NUL is flagged: its C string is cut short */
	cliLitParser_Reset(&p);
	v = parse(&p, "{\"a\\u0000b\": \"x\\u0000y\"}");
	ck_assert(v->first->keyHasNul);
	ck_assert(v->first->hasNul);
	ck_assert_int_eq(v->first->length, 3);
	cliLitParser_Destroy(&p);
}
END_TEST

START_TEST(programsLiterals)
{
	cliLitParser p;
	memset(&p, 0, sizeof p);
	/* Python: print(dict) and repr */
	const cliLit* v = parse(&p, "{'id': 't001', 'hit': True, 'alpha': nan, 'normal': (0.0, 0.0, 1.0), 'tri': None}");
	ck_assert_int_eq(v->kind, cli_litObject);
	ck_assert_str_eq(cliLit_Member(v, "id")->text, "t001");
	ck_assert(cliLit_Member(v, "hit")->boolean);
	ck_assert_int_eq(cliLit_Member(v, "alpha")->kind, cli_litNumber);
	ck_assert_int_eq(cliLit_Member(v, "normal")->kind, cli_litList);
	ck_assert_int_eq(cliLit_Member(v, "normal")->open, '(');
	ck_assert_int_eq(cliLit_Member(v, "tri")->kind, cli_litNull);
	ck_assert(p.used & cli_litSingleQuotes);
	ck_assert(p.used & cli_litPython);
	ck_assert(p.used & cli_litNonFinite);
	/* Java's toString, a record's, Kotlin's data class, Python's dataclass */
	const char* typed[] = {
		"Result{id='t001', hit=true, alpha=0.25, normal=[0.0, 0.0, 1.0]}",
		"Result[id=t001, hit=true, alpha=0.25, normal=[0.0, 0.0, 1.0]]",
		"Result(id=t001, hit=true, alpha=0.25, normal=[0.0, 0.0, 1.0])",
		"Result(id='t001', hit=True, alpha=0.25, normal=(0.0, 0.0, 1.0))",
		/* Rust's Debug, Go's %+v, a C initialiser, Ruby's inspect, JavaScript */
		"Result { id: \"t001\", hit: true, alpha: 0.25, normal: [0.0, 0.0, 1.0] }",
		"{Id:t001 Hit:true Alpha:0.25 Normal:[0 0 1]}",
		"{ .id = \"t001\", .hit = 1, .alpha = 0.25, .normal = { 0.0, 0.0, 1.0 } }",
		"{:id=>\"t001\", :hit=>true, :alpha=>0.25, :normal=>[0.0, 0.0, 1.0]}",
		"{id: 't001', hit: true, alpha: .25, normal: [0, 0, 1],}",
	};
	for (size_t k = 0; k < sizeof typed / sizeof typed[0]; ++k) {
		cliLitParser_Reset(&p);
		v = parse(&p, typed[k]);
		ck_assert_msg(v->kind == cli_litObject && v->count == 4, "%s: kind %d, %d members", typed[k], v->kind,
					  v->count);
		ck_assert_msg(strcmp(cliLit_Member(v, "id")->text, "t001") == 0, "%s", typed[k]);
		const cliLit* alpha = cliLit_Member(v, "alpha");
		ck_assert_msg(alpha != NULL && alpha->kind == cli_litNumber, "%s", typed[k]);
		const cliLit* normal = cliLit_Member(v, "normal");
		ck_assert_msg(normal->kind == cli_litList && normal->count == 3, "%s: normal %d of %d", typed[k],
					  normal->kind, normal->count);
	}
	/* numpy's repr: the value inside a type name's parentheses */
	cliLitParser_Reset(&p);
	v = parse(&p, "{'alpha': np.float64(0.25), 'n': array([0., 0., 1.])}");
	ck_assert_int_eq(cliLit_Member(v, "alpha")->kind, cli_litNumber);
	ck_assert_str_eq(cliLit_Member(v, "alpha")->text, "0.25");
	ck_assert_int_eq(cliLit_Member(v, "n")->kind, cli_litList);
	ck_assert_int_eq(cliLit_Member(v, "n")->count, 3);
	ck_assert(p.used & cli_litLooseNumbers); /* 0. */
	/* a tuple of values: a list; a bare word a word */
	cliLitParser_Reset(&p);
	v = parse(&p, "('t001', True, 0.25, (0, 0, 1), 3)");
	ck_assert_int_eq(v->kind, cli_litList);
	ck_assert_int_eq(v->count, 5);
	cliLitParser_Reset(&p);
	v = parse(&p, "FACE");
	ck_assert_int_eq(v->kind, cli_litWord);
	cliLitParser_Destroy(&p);
}
END_TEST

START_TEST(lazyAndSkip)
{
	const char* text = "{\"ballcast\": \"0.1\", \"results\": [{\"id\": 1}, {\"id\": \"]\"}], \"n\": 2} tail";
	cliLitParser p;
	memset(&p, 0, sizeof p);
	p.lazyDepth = 1;
	const cliLit* v = parse(&p, text);
	const cliLit* results = cliLit_Member(v, "results");
	ck_assert(results->lazy);
	ck_assert_int_eq(results->count, 0);
	ck_assert_int_eq(text[results->begin], '[');
	ck_assert_int_eq(text[results->end - 1], ']');
	/* walked later from its place */
	cliLitCursor c;
	cliLitCursor_At(&c, text, strlen(text), results);
	p.lazyDepth = 0;
	bcError error;
	const cliLit* whole = cliLitParser_Value(&p, &c, &error);
	ck_assert_int_eq(whole->count, 2);
	ck_assert_str_eq(cliLit_Member(whole->first->next, "id")->text, "]");
	/* the skip: brackets and strings, and a type name with its container */
	cliLitCursor_Init(&c, text, strlen(text));
	ck_assert(cliLitCursor_SkipValue(&c));
	ck_assert_int_eq(c.pos, strlen(text) - 5);
	const char* typed = "Result {a=1, b='x)'} next";
	cliLitCursor_Init(&c, typed, strlen(typed));
	ck_assert(cliLitCursor_SkipValue(&c));
	ck_assert_int_eq(c.pos, strlen(typed) - 5);
	/* unclosed: false, at the end */
	cliLitCursor_Init(&c, "[1, [2", 6);
	ck_assert(!cliLitCursor_SkipValue(&c));
	ck_assert_int_eq(c.pos, 6);
	cliLitParser_Destroy(&p);
}
END_TEST

START_TEST(errorsAndPlaces)
{
	assertFails("[1, 2", 1, 6, "unexpected end of input: unclosed '[' opened at 1:1");
	assertFails("{\"a\": [1, 2}", 1, 12, "expected ']' to close '[' opened at 1:7, found '}'");
	assertFails("{\"id\": 1,\n \"alpha\" 0.5}", 2, 10, "expected ':' after a key");
	assertFails("\"open", 1, 6, "unexpected end of input inside a string opened at 1:1");
	assertFails("   ", 1, 4, "unexpected end of input: expected a value");
	/* a stack the input cannot exhaust */
	char deep[200];
	memset(deep, '[', sizeof deep - 1);
	deep[sizeof deep - 1] = '\0';
	assertFails(deep, 1, 65, "values nested more than 64 deep");
}
END_TEST

START_TEST(arenaBlocks)
{
	cliArena arena;
	memset(&arena, 0, sizeof arena);
	char* a = cliArena_Copy(&arena, "abc", 3);
	ck_assert_str_eq(a, "abc");
	/* a block bigger than the usual: its own, the open one still used */
	char* big = cliArena_Alloc(&arena, 200000);
	ck_assert_ptr_nonnull(big);
	memset(big, 1, 200000);
	char* b = cliArena_Copy(&arena, "de", 2);
	ck_assert_str_eq(b, "de");
	ck_assert_str_eq(a, "abc");
	cliArena_Reset(&arena);
	char* c = cliArena_Copy(&arena, "f", 1);
	ck_assert_str_eq(c, "f");
	cliArena_Destroy(&arena);
	ck_assert_ptr_null(arena.blocks);
}
END_TEST

static Suite* literalSuite(void)
{
	Suite* suite = suite_create("literal");
	TCase* tc = tcase_create("literal");
	tcase_add_test(tc, jsonExactly);
	tcase_add_test(tc, programsLiterals);
	tcase_add_test(tc, lazyAndSkip);
	tcase_add_test(tc, errorsAndPlaces);
	tcase_add_test(tc, arenaBlocks);
	suite_add_tcase(suite, tc);
	return suite;
}

int main(void)
{
	return bcRunSuite(literalSuite());
}
