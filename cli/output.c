/* output.c - the temporary-then-publish output file and shared writers. */
/* realpath is XSI. */
#define _XOPEN_SOURCE 700
#include "output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "numfmt.h"

/* A large stdio buffer: output is many small writes. */
#define CLI_OUTPUT_BUFFER (1 << 20)

/* The mode a new output file gets: 0666 less the umask. */
static mode_t newFileMode(void)
{
	mode_t mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

bool cliOutput_Open(cliOutput* out, const char* path)
{
	out->stream = NULL;
	out->tempPath = NULL;
	out->target = NULL;
	out->direct = false;
	out->path = (path != NULL && strcmp(path, "-") != 0) ? path : NULL;
	if (out->path == NULL) {
		out->stream = tmpfile();
		if (out->stream == NULL) {
			fprintf(stderr, "ballcast: cannot create a temporary file: %s\n", strerror(errno));
			return false;
		}
		setvbuf(out->stream, NULL, _IOFBF, CLI_OUTPUT_BUFFER);
		return true;
	}
	struct stat info;
	bool exists = stat(out->path, &info) == 0;
	if (exists && !S_ISREG(info.st_mode)) {
		if (S_ISDIR(info.st_mode)) {
			fprintf(stderr, "ballcast: %s: cannot write the output: Is a directory\n", out->path);
			return false;
		}
		out->direct = true;
		out->stream = fopen(out->path, "w");
		if (out->stream == NULL) {
			fprintf(stderr, "ballcast: %s: cannot open the output: %s\n", out->path, strerror(errno));
			return false;
		}
		setvbuf(out->stream, NULL, _IOFBF, CLI_OUTPUT_BUFFER);
		return true;
	}
	struct stat link;
	out->target = NULL;
	if (lstat(out->path, &link) == 0 && S_ISLNK(link.st_mode)) {
		out->target = realpath(out->path, NULL);
	}
	if (out->target == NULL) {
		out->target = strdup(out->path);
	}
	size_t n = out->target != NULL ? strlen(out->target) : 0;
	out->tempPath = out->target != NULL ? malloc(n + 16) : NULL;
	if (out->tempPath == NULL) {
		fprintf(stderr, "ballcast: out of memory\n");
		free(out->target);
		out->target = NULL;
		return false;
	}
	memcpy(out->tempPath, out->target, n);
	memcpy(out->tempPath + n, ".tmp.XXXXXX", 12);
	int fd = mkstemp(out->tempPath);
	if (fd >= 0 && fchmod(fd, exists ? (info.st_mode & 07777) : newFileMode()) != 0) {
		close(fd);
		unlink(out->tempPath);
		fd = -1;
	}
	if (fd < 0 || (out->stream = fdopen(fd, "w")) == NULL) {
		fprintf(stderr, "ballcast: %s: cannot create the output: %s\n", out->path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(out->tempPath);
		}
		free(out->tempPath);
		free(out->target);
		out->tempPath = NULL;
		out->target = NULL;
		return false;
	}
	setvbuf(out->stream, NULL, _IOFBF, CLI_OUTPUT_BUFFER);
	return true;
}

void cliOutput_Abort(cliOutput* out)
{
	if (out->stream != NULL) {
		fclose(out->stream);
		out->stream = NULL;
	}
	if (out->tempPath != NULL) {
		unlink(out->tempPath);
		free(out->tempPath);
		out->tempPath = NULL;
	}
	free(out->target);
	out->target = NULL;
}

/* Copy the finished temporary to stdout. */
static bool copyToStdout(FILE* temp)
{
	char buffer[1 << 16];
	rewind(temp);
	size_t n;
	while ((n = fread(buffer, 1, sizeof buffer, temp)) > 0) {
		if (fwrite(buffer, 1, n, stdout) != n) {
			return false;
		}
	}
	return !ferror(temp) && fflush(stdout) == 0 && !ferror(stdout);
}

bool cliOutput_Commit(cliOutput* out)
{
	bool ok = fflush(out->stream) == 0 && !ferror(out->stream);
	if (!ok) {
		fprintf(stderr, "ballcast: %s: write error: %s\n", out->path != NULL ? out->path : "(temporary output)",
				strerror(errno));
		cliOutput_Abort(out);
		return false;
	}
	if (out->path == NULL) {
		ok = copyToStdout(out->stream);
		if (!ok) {
			fprintf(stderr, "ballcast: standard output: write error: %s\n", strerror(errno != 0 ? errno : EIO));
		}
		cliOutput_Abort(out);
		return ok;
	}
	if (out->direct) {
		ok = fclose(out->stream) == 0;
		out->stream = NULL;
		if (!ok) {
			fprintf(stderr, "ballcast: %s: write error: %s\n", out->path, strerror(errno));
		}
		return ok;
	}
	if (fsync(fileno(out->stream)) != 0 && errno != EINVAL) {
		fprintf(stderr, "ballcast: %s: write error: %s\n", out->path, strerror(errno));
		cliOutput_Abort(out);
		return false;
	}
	if (fclose(out->stream) != 0) {
		out->stream = NULL;
		fprintf(stderr, "ballcast: %s: write error: %s\n", out->path, strerror(errno));
		cliOutput_Abort(out);
		return false;
	}
	out->stream = NULL;
	if (rename(out->tempPath, out->target) != 0) {
		fprintf(stderr, "ballcast: %s: cannot write the output: %s\n", out->path, strerror(errno));
		cliOutput_Abort(out);
		return false;
	}
	free(out->tempPath);
	out->tempPath = NULL;
	free(out->target);
	out->target = NULL;
	return true;
}

static bool endsWith(const char* text, const char* suffix)
{
	size_t n = strlen(text), m = strlen(suffix);
	return n >= m && strcmp(text + n - m, suffix) == 0;
}

cliOutputFormat cliFormatFromPath(const char* path, cliOutputFormat fallback)
{
	if (path == NULL) {
		return fallback;
	}
	if (endsWith(path, ".ndjson") || endsWith(path, ".jsonl")) {
		return cli_outputNdjson;
	}
	if (endsWith(path, ".json")) {
		return cli_outputJson;
	}
	if (endsWith(path, ".csv")) {
		return cli_outputCsv;
	}
	return fallback;
}

bool cliParseOutputFormat(const char* text, cliOutputFormat* format)
{
	if (strcmp(text, "json") == 0) {
		*format = cli_outputJson;
	} else if (strcmp(text, "ndjson") == 0 || strcmp(text, "jsonl") == 0) {
		*format = cli_outputNdjson;
	} else if (strcmp(text, "csv") == 0) {
		*format = cli_outputCsv;
	} else {
		return false;
	}
	return true;
}

void cliWriteNumber(FILE* f, double value)
{
	char buffer[CLI_NUMFMT_SIZE];
	int n = cliFormatDouble(value, buffer);
	fwrite(buffer, 1, (size_t)n, f);
}

void cliWriteInt(FILE* f, long long value)
{
	fprintf(f, "%lld", value);
}

void cliWriteJsonString(FILE* f, const char* text)
{
	static const char hex[] = "0123456789abcdef";
	putc('"', f);
	for (const unsigned char* p = (const unsigned char*)text; *p != 0; ++p) {
		unsigned char ch = *p;
		if (ch == '"' || ch == '\\') {
			putc('\\', f);
			putc(ch, f);
		} else if (ch == '\n') {
			fputs("\\n", f);
		} else if (ch == '\r') {
			fputs("\\r", f);
		} else if (ch == '\t') {
			fputs("\\t", f);
		} else if (ch < 0x20 || ch == 0x7f) {
			fputs("\\u00", f);
			putc(hex[ch >> 4], f);
			putc(hex[ch & 15], f);
		} else {
			putc(ch, f);
		}
	}
	putc('"', f);
}

void cliWriteJsonVec3(FILE* f, double x, double y, double z)
{
	putc('[', f);
	cliWriteNumber(f, x);
	putc(',', f);
	cliWriteNumber(f, y);
	putc(',', f);
	cliWriteNumber(f, z);
	putc(']', f);
}

void cliWriteCsvField(FILE* f, const char* text)
{
	if (strpbrk(text, ",\"\r\n") == NULL && text[0] != ' ' && text[0] != 0) {
		fputs(text, f);
		return;
	}
	if (text[0] == 0) {
		return;
	}
	putc('"', f);
	for (const char* p = text; *p != 0; ++p) {
		if (*p == '"') {
			putc('"', f);
		}
		putc(*p, f);
	}
	putc('"', f);
}
