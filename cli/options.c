/* options.c - the command line of a subcommand: the options every command
 * spells the same way, the command's own options, --help and --version,
 * its operands, and the rule that -o never overwrites an input (options.h). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "options.h"
#include "output.h"
#include "records.h"

/* getopt codes of the options without a short letter. Own options without
 * a letter take CLI_OWN_CODE + their index. */
enum { cli_codeMaxErrors = 256, cli_codeVersion, cli_codeMeshFormat, cli_codeShard, cli_codeOwn = 512 };

/* The common options: their bit, long name, getopt code and whether they
 * take a value. */
static const struct {
	unsigned bit;
	const char* name;
	int code;
	bool hasValue;
} commonOptions[] = {
	{ cli_optOutput, "output", 'o', true },
	{ cli_optFormat, "format", 'f', true },
	{ cli_optInputFormat, "input-format", 'i', true },
	{ cli_optRadius, "radius", 'r', true },
	{ cli_optThreads, "threads", 'j', true },
	{ cli_optQuiet, "quiet", 'q', false },
	{ cli_optMaxErrors, "max-errors", cli_codeMaxErrors, true },
	{ cli_optMeshFormat, "mesh-format", cli_codeMeshFormat, true },
	{ cli_optShard, "shard", cli_codeShard, true },
};

#define CLI_COMMON_COUNT (sizeof commonOptions / sizeof commonOptions[0])

int cliParseDouble(const char* text, double* value)
{
	char* end = NULL;
	errno = 0;
	double v = strtod(text, &end);
	if (end == text || *end != 0 || errno == ERANGE || !isfinite(v)) {
		return 0;
	}
	*value = v;
	return 1;
}

int cliParseInt(const char* text, int* value)
{
	char* end = NULL;
	errno = 0;
	long v = strtol(text, &end, 10);
	if (end == text || *end != 0 || errno == ERANGE || v < INT_MIN || v > INT_MAX) {
		return 0;
	}
	*value = (int)v;
	return 1;
}

bool cliParseNonNegative(const char* text, double* value)
{
	double v;
	if (!cliParseDouble(text, &v) || v < 0.0) {
		return false;
	}
	*value = v;
	return true;
}

/* -i/--input-format's names and what each means. */
static const struct {
	const char* name;
	cliInputFormat format;
} inputFormatNames[] = {
	{ "auto", cli_inputAuto }, { "json", cli_inputJson }, { "ndjson", cli_inputNdjson },
	{ "jsonl", cli_inputNdjson }, { "csv", cli_inputCsv },
};

#define CLI_INPUT_FORMAT_COUNT ((int)(sizeof inputFormatNames / sizeof inputFormatNames[0]))

bool cliParseInputFormat(const char* text, cliInputFormat* format)
{
	for (int i = 0; i < CLI_INPUT_FORMAT_COUNT; ++i) {
		if (strcmp(text, inputFormatNames[i].name) == 0) {
			*format = inputFormatNames[i].format;
			return true;
		}
	}
	return false;
}

const char* cliInputFormatName(int k)
{
	return k >= 0 && k < CLI_INPUT_FORMAT_COUNT ? inputFormatNames[k].name : NULL;
}

bool cliParseMeshFormat(const char* text, bcMeshFormat* format)
{
	for (int f = bc_meshAuto; f <= bc_meshOff; ++f) {
		if (strcmp(text, bcMeshFormatName((bcMeshFormat)f)) == 0) {
			*format = (bcMeshFormat)f;
			return true;
		}
	}
	return false;
}

bool cliParseShard(const char* text, long* index, long* count)
{
	char* slash = NULL;
	errno = 0;
	long k = strtol(text, &slash, 10);
	if (slash == text || *slash != '/' || errno == ERANGE || text[0] == '-' || text[0] == '+' || text[0] == ' ') {
		return false;
	}
	char* end = NULL;
	long n = strtol(slash + 1, &end, 10);
	if (end == slash + 1 || *end != '\0' || errno == ERANGE || slash[1] == '-' || slash[1] == '+' ||
		slash[1] == ' ' || n < 1 || k < 0 || k >= n) {
		return false;
	}
	*index = k;
	*count = n;
	return true;
}

size_t cliEditDistance(const char* a, size_t n, const char* b)
{
	enum { cli_maxName = 32 };
	size_t m = strlen(b);
	if (n >= cli_maxName || m >= cli_maxName) {
		return SIZE_MAX;
	}
	size_t d[cli_maxName + 1][cli_maxName + 1];
	for (size_t i = 0; i <= n; ++i) {
		for (size_t j = 0; j <= m; ++j) {
			if (i == 0 || j == 0) {
				d[i][j] = i + j;
				continue;
			}
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			best = d[i - 1][j] + 1 < best ? d[i - 1][j] + 1 : best;
			best = d[i][j - 1] + 1 < best ? d[i][j - 1] + 1 : best;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best) {
				best = d[i - 2][j - 2] + 1;
			}
			d[i][j] = best;
		}
	}
	return d[n][m];
}

/* "unknown option '--fromat' (did you mean '--format'?)": the nearest of
 * the command's long options within CLI_SUGGEST_EDITS edits of the name
 * given (before any '='); the bare message when none is near or the
 * argument is not a long option. */
static int unknownOption(const cliUsage* usage, const struct option* longOptions, const char* arg)
{
	if (arg == NULL || strncmp(arg, "--", 2) != 0) {
		return cliUsageError(usage, "unknown option", arg);
	}
	const char* name = arg + 2;
	size_t length = strcspn(name, "=");
	char message[sizeof((bcError*)0)->message];
	/* getopt answers '?' for more than a name it does not know: a value
	 * given to an option that takes none, and a prefix of several */
	int prefixed = 0;
	size_t used = 0;
	for (const struct option* o = longOptions; o->name != NULL; ++o) {
		if (strlen(o->name) == length && strncmp(o->name, name, length) == 0) {
			snprintf(message, sizeof message, "--%s takes no value, not '%s'", o->name, name + length + 1);
			return cliUsageError(usage, message, NULL);
		}
		if (length > 0 && strncmp(o->name, name, length) == 0) {
			if (prefixed++ == 0) {
				used = (size_t)snprintf(message, sizeof message, "ambiguous option '--%.*s' (--%s", (int)length,
										name, o->name);
			} else if (used < sizeof message) {
				used += (size_t)snprintf(message + used, sizeof message - used, ", --%s", o->name);
			}
		}
	}
	if (prefixed > 1) {
		if (used < sizeof message) {
			snprintf(message + used, sizeof message - used, ")");
		}
		return cliUsageError(usage, message, NULL);
	}
	const char* closest = NULL;
	size_t best = CLI_SUGGEST_EDITS + 1;
	for (const struct option* o = longOptions; o->name != NULL; ++o) {
		size_t d = cliEditDistance(name, length, o->name);
		if (d < best) {
			best = d;
			closest = o->name;
		}
	}
	if (closest == NULL) {
		return cliUsageError(usage, "unknown option", arg);
	}
	snprintf(message, sizeof message, "unknown option '%.*s' (did you mean '--%s'?)", (int)(length + 2), arg,
			 closest);
	return cliUsageError(usage, message, NULL);
}

/* The argument getopt_long was reading when it stopped at an error, given
 * optind before the call: the first argument from there on that is an
 * option (GNU getopt skips operands, and moves them only behind what it
 * has read; optind past a short option is not advanced until the group of
 * letters ends, so argv[optind - 1] may be an operand: issue 26). */
static const char* optionArgument(int argc, char** argv, int before)
{
	for (int k = before > 0 ? before : 1; k < argc; ++k) {
		if (argv[k][0] == '-' && argv[k][1] != '\0') {
			return argv[k];
		}
	}
	return optind > 0 && optind <= argc ? argv[optind - 1] : NULL;
}

/* "unknown option '-1' in '-1.ndjson' (a file? ...)": a short option
 * getopt does not know, letter, in arg, a group of letters or a file
 * named with a leading '-'. */
static int unknownLetter(const cliUsage* usage, const char* arg, int letter)
{
	char message[sizeof((bcError*)0)->message];
	if (arg == NULL || strlen(arg) <= 2) {
		snprintf(message, sizeof message, "unknown option '-%c'", letter);
	} else {
		snprintf(message, sizeof message,
				 "unknown option '-%c' in '%s' (if '%s' is a file, write './%s' or put '--' before it)", letter, arg,
				 arg, arg);
	}
	return cliUsageError(usage, message, NULL);
}

int cliUsageError(const cliUsage* usage, const char* message, const char* arg)
{
	fprintf(stderr, "ballcast %s: %s%s%s%s\n", usage->command, message, arg != NULL ? " '" : "",
			arg != NULL ? arg : "", arg != NULL ? "'" : "");
	int synopsis = (int)strcspn(usage->text, "\n");
	fprintf(stderr, "%.*s   (ballcast %s --help)\n", synopsis, usage->text, usage->command);
	return cli_exitTrouble;
}

/* "unknown output format 'xml' (json, ndjson or csv)": the name given and
 * the ones there are. */
static int unknownName(const cliUsage* usage, const char* what, const char* name, const char* valid)
{
	char message[sizeof((bcError*)0)->message];
	snprintf(message, sizeof message, "unknown %s '%s' (%s)", what, name, valid);
	return cliUsageError(usage, message, NULL);
}

/* Take the value of common option code; -1 to go on, or an exit status. */
static int commonOption(const cliUsage* usage, int code, const char* value, cliCommonOptions* options)
{
	switch (code) {
	case 'o':
		options->outputPath = value;
		/* What the last -o names, unless -f said otherwise (before or after). */
		if (!options->formatGiven) {
			options->format = cliFormatFromPath(value, cli_outputJson);
		}
		return -1;
	case 'f':
		if (!cliParseOutputFormat(value, &options->format)) {
			return unknownName(usage, "output format", value, "json, ndjson or csv");
		}
		options->formatGiven = true;
		return -1;
	case 'i':
		if (!cliParseInputFormat(value, &options->inputFormat)) {
			return unknownName(usage, "input format", value, "auto, json, ndjson or csv");
		}
		return -1;
	case 'r':
		if (!cliParseNonNegative(value, &options->radius)) {
			return cliUsageError(usage, "--radius needs a finite number >= 0, not", value);
		}
		options->haveRadius = true;
		return -1;
	case 'j':
		if (!cliParseInt(value, &options->threads) || options->threads < 1) {
			return cliUsageError(usage, "--threads needs a whole number >= 1, not", value);
		}
		return -1;
	case 'q':
		options->quiet = true;
		return -1;
	case cli_codeMeshFormat:
		if (!cliParseMeshFormat(value, &options->meshFormat)) {
			return unknownName(usage, "mesh format", value, "auto, obj, stl, ply or off");
		}
		return -1;
	case cli_codeShard:
		if (!cliParseShard(value, &options->shardIndex, &options->shardCount)) {
			return cliUsageError(usage, "--shard needs K/N with 0 <= K < N (K counts from 0, as "
										"$SLURM_ARRAY_TASK_ID and $(Process) do), not",
								 value);
		}
		return -1;
	default: { /* --max-errors */
		char* end = NULL;
		errno = 0;
		long n = strtol(value, &end, 10);
		if (end == value || *end != 0 || errno == ERANGE || n < 0) {
			return cliUsageError(usage, "--max-errors needs a whole number >= 0, not", value);
		}
		options->maxErrors = n;
		options->maxErrorsGiven = true;
		return -1;
	}
	}
}

/* Do paths a and b name the same existing regular file? */
static bool sameFile(const char* a, const char* b)
{
	struct stat x, y;
	return strcmp(a, "-") != 0 && strcmp(b, "-") != 0 && stat(a, &x) == 0 && stat(b, &y) == 0 &&
		   S_ISREG(x.st_mode) && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

int cliRefuseOverwrite(const cliUsage* usage, const char* output, const char* option, const char* input)
{
	if (output == NULL || input == NULL || !sameFile(output, input)) {
		return -1;
	}
	char message[64];
	snprintf(message, sizeof message, "%s would overwrite the input", option);
	return cliUsageError(usage, message, input);
}

const char cliUsageQueryMarker[] = "(the usage query of completion.c)";

int cliUsage_Options(const cliUsage* usage, cliOption* options, int capacity)
{
	int n = 0;
	for (size_t k = 0; k < CLI_COMMON_COUNT; ++k) {
		if (usage->common & commonOptions[k].bit) {
			int code = commonOptions[k].code;
			if (n < capacity) {
				options[n] = (cliOption){ commonOptions[k].name, code < cli_codeMaxErrors ? (char)code : 0,
										  commonOptions[k].hasValue };
			}
			n++;
		}
	}
	for (int k = 0; usage->own != NULL && usage->own[k].name != NULL; ++k) {
		if (n < capacity) {
			options[n] = usage->own[k];
		}
		n++;
	}
	if (n < capacity) {
		options[n] = (cliOption){ "help", 'h', false };
	}
	n++;
	if (n < capacity) {
		options[n] = (cliOption){ "version", 0, false };
	}
	n++;
	return n;
}

int cliParseArguments(const cliUsage* usage, int argc, char** argv, cliCommonOptions* common,
					  cliOptionFcn* handle, void* context, int* first)
{
	if (argc == 3 && argv[1] == cliUsageQueryMarker) {
		cliUsageQuery* query = (cliUsageQuery*)(void*)argv[2];
		query->usage = usage;
		int own = 0;
		while (usage->own != NULL && usage->own[own].name != NULL) {
			own++;
		}
		if (query->value != NULL && handle != NULL && query->option >= 0 && query->option < own) {
			query->refusal = handle(context, query->option, query->value);
		}
		return 0;
	}
	int ownCount = 0;
	while (usage->own != NULL && usage->own[ownCount].name != NULL) {
		ownCount++;
	}
	struct option* longOptions = calloc(CLI_COMMON_COUNT + (size_t)ownCount + 3, sizeof *longOptions);
	char* shortOptions = malloc(2 * (CLI_COMMON_COUNT + (size_t)ownCount) + 3);
	if (longOptions == NULL || shortOptions == NULL) {
		free(longOptions);
		free(shortOptions);
		fputs("ballcast: out of memory\n", stderr);
		return cli_exitTrouble;
	}
	size_t nLong = 0, nShort = 0;
	shortOptions[nShort++] = ':';
	for (size_t k = 0; k < CLI_COMMON_COUNT; ++k) {
		if (usage->common & commonOptions[k].bit) {
			int code = commonOptions[k].code;
			longOptions[nLong++] = (struct option){ commonOptions[k].name, commonOptions[k].hasValue, NULL, code };
			if (code < cli_codeMaxErrors) {
				shortOptions[nShort++] = (char)code;
				if (commonOptions[k].hasValue) {
					shortOptions[nShort++] = ':';
				}
			}
		}
	}
	for (int k = 0; k < ownCount; ++k) {
		const cliOption* own = usage->own + k;
		int code = own->letter != 0 ? own->letter : cli_codeOwn + k;
		longOptions[nLong++] = (struct option){ own->name, own->hasValue, NULL, code };
		if (own->letter != 0) {
			shortOptions[nShort++] = own->letter;
			if (own->hasValue) {
				shortOptions[nShort++] = ':';
			}
		}
	}
	longOptions[nLong++] = (struct option){ "help", no_argument, NULL, 'h' };
	longOptions[nLong++] = (struct option){ "version", no_argument, NULL, cli_codeVersion };
	shortOptions[nShort++] = 'h';
	shortOptions[nShort] = '\0';

	memset(common, 0, sizeof *common);
	/* 0 makes GNU getopt start afresh (its state after an earlier parse
	 * stopped mid-way would otherwise carry over) */
	optind = 0;
	opterr = 0;
	int status = -1;
	int c;
	int before = optind;
	while (status < 0 && (c = getopt_long(argc, argv, shortOptions, longOptions, NULL)) != -1) {
		int own = c >= cli_codeOwn ? c - cli_codeOwn : -1;
		for (int k = 0; k < ownCount && own < 0 && c < cli_codeMaxErrors; ++k) {
			own = usage->own[k].letter == c ? k : -1;
		}
		if (own >= 0) {
			const char* problem = handle(context, own, optarg);
			status = problem != NULL ? cliUsageError(usage, problem, optarg) : -1;
		} else if (c == 'h') {
			fputs(usage->text, stdout);
			status = cliFinishStdout();
		} else if (c == cli_codeVersion) {
			puts("ballcast " BC_VERSION_STRING);
			status = cliFinishStdout();
		} else if (c == ':') {
			status = cliUsageError(usage, "missing value for", optionArgument(argc, argv, before));
		} else if (c == '?') {
			const char* arg = optionArgument(argc, argv, before);
			status = arg != NULL && strncmp(arg, "--", 2) != 0 && optopt != 0 ? unknownLetter(usage, arg, optopt)
																			  : unknownOption(usage, longOptions, arg);
		} else {
			status = commonOption(usage, c, optarg, common);
		}
		before = optind;
	}
	free(longOptions);
	free(shortOptions);
	if (status >= 0) {
		return status;
	}
	int rest = argc - optind;
	if (rest < usage->minOperands) {
		const char* missing = rest < 3 ? usage->missing[rest] : NULL;
		return cliUsageError(usage, missing != NULL ? missing : "missing operands", NULL);
	}
	if (usage->maxOperands >= 0 && rest > usage->maxOperands) {
		return cliUsageError(usage, "too many arguments, starting at", argv[optind + usage->maxOperands]);
	}
	for (int k = optind; k < argc && status < 0; ++k) {
		status = cliRefuseOverwrite(usage, common->outputPath, "-o", argv[k]);
	}
	*first = optind;
	return status;
}
