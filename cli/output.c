/* output.c - the temporary-then-publish output file and shared writers. */
/* fopencookie is GNU (glibc and musl have it). */
#define _GNU_SOURCE
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "numfmt.h"

/* ------------------------------------------------ interrupted runs
 *
 * A temporary output file is removed when the run is ended by a signal,
 * and the process then dies by that signal. Every signal whose default
 * action ends the process is caught (SIGINT, SIGTERM, SIGHUP, SIGQUIT,
 * SIGUSR1, SIGALRM, SIGXFSZ when a write passes ulimit -f, ..., the
 * real-time ones): only SIGKILL, which nothing can catch, leaves the
 * temporary behind. A signal ignored, or handled by someone else (a
 * sanitizer's SIGSEGV), when the first temporary is made is left as it is.
 * The handler can reach nothing but static storage, so the temporaries'
 * names are copied here beforehand: the CLI's one mutable global state,
 * written only by cliOutput_Open, _Commit and _Abort. The handler only
 * unlinks the names of armed slots and re-raises (both async-signal-safe). */

/* Temporaries open at once: simulate writes two (events and positions). */
#define CLI_PENDING_SLOTS 4

/* The longest temporary name a slot holds; a longer one (beyond PATH_MAX,
 * which the system would refuse to open anyway) is not armed. */
#define CLI_PENDING_PATH PATH_MAX

static char pendingPaths[CLI_PENDING_SLOTS][CLI_PENDING_PATH];
static atomic_int pendingArmed[CLI_PENDING_SLOTS];
static atomic_int handlersInstalled;

static void removePendingAndDie(int sig)
{
	for (int k = 0; k < CLI_PENDING_SLOTS; ++k) {
		if (atomic_load(&pendingArmed[k])) {
			unlink(pendingPaths[k]);
		}
	}
	/* SA_RESETHAND made the action the default, SA_NODEFER lets it through */
	raise(sig);
}

/* The signals whose default action ends the process (POSIX's "T" and "A"
 * actions, and Linux's own), but SIGKILL; the real-time ones come after. */
static const int fatalSignals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGUSR1, SIGSEGV, SIGUSR2, SIGPIPE, SIGALRM,
	SIGTERM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGSYS,
#ifdef SIGPOLL
	SIGPOLL,
#endif
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
#ifdef SIGPWR
	SIGPWR,
#endif
};

#define CLI_FATAL_COUNT ((int)(sizeof fatalSignals / sizeof fatalSignals[0]))

/* The k-th signal to catch, k from 0, or 0 past the last. */
static int caughtSignal(int k)
{
	if (k < CLI_FATAL_COUNT) {
		return fatalSignals[k];
	}
#if defined(SIGRTMIN) && defined(SIGRTMAX)
	if (SIGRTMIN + (k - CLI_FATAL_COUNT) <= SIGRTMAX) {
		return SIGRTMIN + (k - CLI_FATAL_COUNT);
	}
#endif
	return 0;
}

/* Faults of the program itself: not held off while a temporary is made
 * (a fault held off is fatal at once, and POSIX leaves it undefined). */
static bool isFault(int sig)
{
	return sig == SIGILL || sig == SIGTRAP || sig == SIGBUS || sig == SIGFPE || sig == SIGSEGV || sig == SIGSYS;
}

/* Catch them all, where their action is still the default. */
static void installHandlers(void)
{
	if (atomic_exchange(&handlersInstalled, 1)) {
		return;
	}
	for (int k = 0, sig; (sig = caughtSignal(k)) != 0; ++k) {
		struct sigaction old;
		if (sigaction(sig, NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) != 0 || old.sa_handler != SIG_DFL) {
			continue;
		}
		struct sigaction action;
		memset(&action, 0, sizeof action);
		action.sa_handler = removePendingAndDie;
		sigemptyset(&action.sa_mask);
		action.sa_flags = SA_RESETHAND | SA_NODEFER;
		sigaction(sig, &action, NULL);
	}
}

/* Block (or restore) the caught signals but faults in this thread, so that
 * a temporary is never made or published without its slot saying so. */
static void blockSignals(sigset_t* saved)
{
	sigset_t set;
	sigemptyset(&set);
	for (int k = 0, sig; (sig = caughtSignal(k)) != 0; ++k) {
		if (!isFault(sig)) {
			sigaddset(&set, sig);
		}
	}
	pthread_sigmask(SIG_BLOCK, &set, saved);
}

static void restoreSignals(const sigset_t* saved)
{
	pthread_sigmask(SIG_SETMASK, saved, NULL);
}

/* A free slot holding path, armed; -1 when none is free or path is too long. */
static int armPending(const char* path)
{
	size_t n = strlen(path);
	if (n >= CLI_PENDING_PATH) {
		return -1;
	}
	installHandlers();
	for (int k = 0; k < CLI_PENDING_SLOTS; ++k) {
		if (!atomic_load(&pendingArmed[k])) {
			memcpy(pendingPaths[k], path, n + 1);
			atomic_store(&pendingArmed[k], 1);
			return k;
		}
	}
	return -1;
}

static void disarmPending(cliOutput* out)
{
	if (out->pending >= 0) {
		atomic_store(&pendingArmed[out->pending], 0);
		out->pending = -1;
	}
}

/* ------------------------------------------------ the file under a stream
 *
 * An output file (the temporary, a device written in place, the staging
 * file of standard output) is a stdio stream over this sink, which keeps
 * the first error writing it: the message about a full disk must name
 * that error, and errno, read later, holds whatever some other call (on
 * some other thread: the writer of cast's pipeline) last left there. */
struct cliSink {
	int fd;
	int error; /* the first write's or close's errno, or 0 */
};

static ssize_t sinkWrite(void* cookie, const char* data, size_t size)
{
	cliSink* sink = cookie;
	size_t done = 0;
	while (done < size) {
		ssize_t n = write(sink->fd, data + done, size - done);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			if (sink->error == 0) {
				sink->error = n < 0 ? errno : EIO;
			}
			break;
		}
		done += (size_t)n;
	}
	/* short: stdio marks the stream in error */
	return (ssize_t)done;
}

static ssize_t sinkRead(void* cookie, char* data, size_t size)
{
	cliSink* sink = cookie;
	ssize_t n;
	do {
		n = read(sink->fd, data, size);
	} while (n < 0 && errno == EINTR);
	return n;
}

static int sinkSeek(void* cookie, off64_t* offset, int whence)
{
	cliSink* sink = cookie;
	off_t at = lseek(sink->fd, (off_t)*offset, whence);
	if (at < 0) {
		return -1;
	}
	*offset = at;
	return 0;
}

static int sinkClose(void* cookie)
{
	cliSink* sink = cookie;
	int closed = close(sink->fd);
	if (closed != 0 && sink->error == 0) {
		sink->error = errno;
	}
	sink->fd = -1;
	return closed;
}

/* out->stream over fd (taken: closed with the stream, or here on failure),
 * opened with mode ("w", or "w+" to be read back); false with errno set. */
static bool openSink(cliOutput* out, int fd, const char* mode)
{
	out->sink = malloc(sizeof *out->sink);
	if (out->sink == NULL) {
		close(fd);
		errno = ENOMEM;
		return false;
	}
	out->sink->fd = fd;
	out->sink->error = 0;
	cookie_io_functions_t functions = { sinkRead, sinkWrite, sinkSeek, sinkClose };
	out->stream = fopencookie(out->sink, mode, functions);
	if (out->stream == NULL) {
		int error = errno;
		close(fd);
		free(out->sink);
		out->sink = NULL;
		errno = error;
		return false;
	}
	return true;
}

/* The reason to give for a failed write, flush or close of out->stream:
 * its sink's first error, else code (errno just after the call). */
static int writeFailure(const cliOutput* out, int code)
{
	return out->sink != NULL && out->sink->error != 0 ? out->sink->error : code;
}

static void freeSink(cliOutput* out)
{
	free(out->sink);
	out->sink = NULL;
}

/* A large stdio buffer: output is many small writes. */
#define CLI_OUTPUT_BUFFER (1 << 20)

/* A buffer's first allocation: a few results, or a header. */
#define CLI_BUFFER_INITIAL ((size_t)4096)

/* The mode a new output file gets: 0666 less the umask. */
static mode_t newFileMode(void)
{
	mode_t mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

/* Links followed from -o's path before giving up (Linux's own limit for
 * a path, ELOOP beyond). */
#define CLI_MAX_LINKS 40

/* The directory part of path with its final '/' (or "" for none) and then
 * name, in one new string; NULL when out of memory. */
static char* besidePath(const char* path, const char* name)
{
	const char* slash = strrchr(path, '/');
	size_t dir = slash != NULL ? (size_t)(slash - path) + 1 : 0, n = strlen(name);
	char* joined = malloc(dir + n + 1);
	if (joined != NULL) {
		memcpy(joined, path, dir);
		memcpy(joined + dir, name, n + 1);
	}
	return joined;
}

/* Where the output goes: path, or, when path is a symbolic link, the end
 * of its chain of links, whether that exists or not (a relative link read
 * from its own directory): the output is written through, as cp does, and
 * the links stay. A new string, or NULL with errno set (ELOOP, ENOMEM,
 * readlink's error). */
static char* outputTarget(const char* path)
{
	char* current = strdup(path);
	for (int hops = 0; current != NULL; ++hops) {
		struct stat info;
		if (lstat(current, &info) != 0 || !S_ISLNK(info.st_mode)) {
			return current;
		}
		size_t size = info.st_size > 0 ? (size_t)info.st_size + 1 : PATH_MAX;
		char* text = hops < CLI_MAX_LINKS ? malloc(size) : NULL;
		ssize_t n = text != NULL ? readlink(current, text, size) : -1;
		char* next = NULL;
		if (hops >= CLI_MAX_LINKS) {
			errno = ELOOP;
		} else if (n >= 0 && (size_t)n < size) {
			text[n] = '\0';
			next = text[0] == '/' ? strdup(text) : besidePath(current, text);
		} else if (n >= 0) {
			errno = ENAMETOOLONG; /* the link grew while it was read */
		}
		free(text);
		free(current);
		current = next;
	}
	return NULL;
}

bool cliOutput_Open(cliOutput* out, const char* path)
{
	out->stream = NULL;
	out->tempPath = NULL;
	out->target = NULL;
	out->direct = false;
	out->streaming = false;
	out->failed = false;
	out->pending = -1;
	out->sink = NULL;
	out->path = (path != NULL && strcmp(path, "-") != 0) ? path : NULL;
	if (out->path == NULL) {
		/* staged in an unnamed temporary (tmpfile's), read back at the end */
		FILE* staging = tmpfile();
		int fd = staging != NULL ? dup(fileno(staging)) : -1;
		int error = errno;
		if (staging != NULL) {
			fclose(staging);
		}
		errno = error;
		if (fd < 0 || !openSink(out, fd, "w+")) {
			fprintf(stderr, "ballcast: cannot create a temporary file: %s\n", strerror(errno));
			return false;
		}
		setvbuf(out->stream, NULL, _IOFBF, CLI_OUTPUT_BUFFER);
		return true;
	}
	out->target = outputTarget(out->path);
	if (out->target == NULL) {
		fprintf(stderr, "ballcast: %s: cannot create the output: %s\n", out->path, strerror(errno));
		return false;
	}
	struct stat info;
	bool exists = stat(out->target, &info) == 0;
	if (exists && !S_ISREG(info.st_mode)) {
		free(out->target);
		out->target = NULL;
		if (S_ISDIR(info.st_mode)) {
			fprintf(stderr, "ballcast: %s: cannot write the output: Is a directory\n", out->path);
			return false;
		}
		out->direct = true;
		int fd = open(out->path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		if (fd < 0 || !openSink(out, fd, "w")) {
			fprintf(stderr, "ballcast: %s: cannot open the output: %s\n", out->path, strerror(errno));
			return false;
		}
		setvbuf(out->stream, NULL, _IOFBF, CLI_OUTPUT_BUFFER);
		return true;
	}
	size_t n = strlen(out->target);
	out->tempPath = malloc(n + 16);
	if (out->tempPath == NULL) {
		fprintf(stderr, "ballcast: out of memory\n");
		free(out->target);
		out->target = NULL;
		return false;
	}
	memcpy(out->tempPath, out->target, n);
	memcpy(out->tempPath + n, ".tmp.XXXXXX", 12);
	/* made and armed with the signals held off: no moment when it exists
	 * unknown to the handler */
	sigset_t saved;
	blockSignals(&saved);
	int fd = mkstemp(out->tempPath);
	if (fd >= 0) {
		out->pending = armPending(out->tempPath);
	}
	restoreSignals(&saved);
	/* A file replaced keeps its owner and group where the system lets us
	 * give them (root, or a group we are in; otherwise they become ours),
	 * then its mode (after the owner: chown may clear set-id bits). */
	if (fd >= 0 && exists) {
		bool kept = fchown(fd, info.st_uid, info.st_gid) == 0 || fchown(fd, (uid_t)-1, info.st_gid) == 0;
		(void)kept; /* best effort, as cp -p does for a file not its own */
	}
	if (fd >= 0 && fchmod(fd, exists ? (info.st_mode & 07777) : newFileMode()) != 0) {
		close(fd);
		unlink(out->tempPath);
		disarmPending(out);
		fd = -1;
	}
	if (fd < 0 || !openSink(out, fd, "w")) {
		fprintf(stderr, "ballcast: %s: cannot create the output: %s\n", out->path, strerror(errno));
		if (fd >= 0) {
			unlink(out->tempPath);
			disarmPending(out);
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

bool cliOutput_OpenStdout(cliOutput* out)
{
	out->stream = stdout;
	out->sink = NULL;
	out->path = NULL;
	out->tempPath = NULL;
	out->target = NULL;
	out->direct = false;
	out->streaming = true;
	out->failed = false;
	out->pending = -1;
	setvbuf(stdout, NULL, _IOFBF, CLI_OUTPUT_BUFFER);
	return true;
}

void cliWriteError(const char* name, int code)
{
	if (code != EPIPE) {
		fprintf(stderr, "ballcast: %s: write error: %s\n", name, strerror(code != 0 ? code : EIO));
		cliNoteFailure(code != 0 ? code : EIO, false);
	}
}

int cliFinishStdout(void)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout)) {
		return cli_exitOk;
	}
	cliWriteError("standard output", errno);
	return cli_exitTrouble;
}

/* Report a streaming write error (the first only). */
static bool streamFailed(cliOutput* out, int code)
{
	if (!out->failed) {
		cliWriteError("standard output", code);
		out->failed = true;
	}
	return false;
}

bool cliOutput_Write(cliOutput* out, const void* data, size_t size)
{
	if (size == 0) {
		return !out->failed;
	}
	if (!out->streaming) {
		fwrite(data, 1, size, out->stream);
		return true;
	}
	if (out->failed) {
		return false;
	}
	errno = 0;
	if (fwrite(data, 1, size, out->stream) != size) {
		return streamFailed(out, errno);
	}
	return true;
}

bool cliOutput_Flush(cliOutput* out)
{
	if (!out->streaming) {
		return true;
	}
	if (out->failed) {
		return false;
	}
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout)) {
		return true;
	}
	return streamFailed(out, errno);
}

void cliOutput_Abort(cliOutput* out)
{
	if (out->streaming) {
		/* what reached stdout stays there */
		out->stream = NULL;
		return;
	}
	if (out->stream != NULL) {
		fclose(out->stream);
		out->stream = NULL;
	}
	freeSink(out);
	if (out->tempPath != NULL) {
		unlink(out->tempPath);
		disarmPending(out);
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
	if (out->streaming) {
		bool flushed = cliOutput_Flush(out);
		out->stream = NULL;
		return flushed;
	}
	bool ok = fflush(out->stream) == 0 && !ferror(out->stream);
	if (!ok) {
		cliWriteError(out->path != NULL ? out->path : "(temporary output)", writeFailure(out, errno));
		cliOutput_Abort(out);
		return false;
	}
	if (out->path == NULL) {
		ok = copyToStdout(out->stream);
		if (!ok) {
			cliWriteError("standard output", errno);
		}
		cliOutput_Abort(out);
		return ok;
	}
	if (out->direct) {
		ok = fclose(out->stream) == 0;
		out->stream = NULL;
		if (!ok) {
			cliWriteError(out->path, writeFailure(out, errno));
		}
		freeSink(out);
		return ok;
	}
	if (fsync(out->sink->fd) != 0 && errno != EINVAL) {
		cliWriteError(out->path, errno);
		cliOutput_Abort(out);
		return false;
	}
	if (fclose(out->stream) != 0) {
		out->stream = NULL;
		cliWriteError(out->path, writeFailure(out, errno));
		cliOutput_Abort(out);
		return false;
	}
	out->stream = NULL;
	freeSink(out);
	sigset_t saved;
	blockSignals(&saved);
	bool renamed = rename(out->tempPath, out->target) == 0;
	int renameError = errno;
	if (renamed) {
		disarmPending(out);
	}
	restoreSignals(&saved);
	if (!renamed) {
		fprintf(stderr, "ballcast: %s: cannot write the output: %s\n", out->path, strerror(renameError));
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

/* -f/--format's names and what each means. */
static const struct {
	const char* name;
	cliOutputFormat format;
} outputFormatNames[] = {
	{ "json", cli_outputJson },
	{ "ndjson", cli_outputNdjson },
	{ "jsonl", cli_outputNdjson },
	{ "csv", cli_outputCsv },
};

#define CLI_OUTPUT_FORMAT_COUNT ((int)(sizeof outputFormatNames / sizeof outputFormatNames[0]))

bool cliParseOutputFormat(const char* text, cliOutputFormat* format)
{
	for (int k = 0; k < CLI_OUTPUT_FORMAT_COUNT; ++k) {
		if (strcmp(text, outputFormatNames[k].name) == 0) {
			*format = outputFormatNames[k].format;
			return true;
		}
	}
	return false;
}

const char* cliOutputFormatName(int k)
{
	return k >= 0 && k < CLI_OUTPUT_FORMAT_COUNT ? outputFormatNames[k].name : NULL;
}

bool cliBuffer_Grow(cliBuffer* buffer, size_t extra)
{
	if (buffer->capacity - buffer->length >= extra) {
		return true;
	}
	size_t capacity = buffer->capacity > 0 ? buffer->capacity : CLI_BUFFER_INITIAL;
	while (capacity - buffer->length < extra) {
		if (capacity > SIZE_MAX / 2) {
			buffer->failed = true;
			return false;
		}
		capacity *= 2;
	}
	char* data = realloc(buffer->data, capacity);
	if (data == NULL) {
		buffer->failed = true;
		return false;
	}
	buffer->data = data;
	buffer->capacity = capacity;
	return true;
}

void cliBuffer_Clear(cliBuffer* buffer)
{
	buffer->length = 0;
	buffer->failed = false;
}

void cliBuffer_Free(cliBuffer* buffer)
{
	free(buffer->data);
	buffer->data = NULL;
	buffer->length = 0;
	buffer->capacity = 0;
	buffer->failed = false;
}

void cliBuffer_AppendNumber(cliBuffer* buffer, double value)
{
	if (cliBuffer_Grow(buffer, CLI_NUMFMT_SIZE)) {
		buffer->length += (size_t)cliFormatDouble(value, buffer->data + buffer->length);
	}
}

void cliBuffer_AppendInt(cliBuffer* buffer, long long value)
{
	/* as printf's %lld */
	char digits[24];
	size_t n = 0;
	unsigned long long magnitude = value < 0 ? 0ull - (unsigned long long)value : (unsigned long long)value;
	do {
		digits[n++] = (char)('0' + magnitude % 10);
		magnitude /= 10;
	} while (magnitude > 0);
	if (value < 0) {
		digits[n++] = '-';
	}
	if (cliBuffer_Grow(buffer, n)) {
		for (size_t i = 0; i < n; ++i) {
			buffer->data[buffer->length++] = digits[n - 1 - i];
		}
	}
}

static const char hexDigits[] = "0123456789abcdef";

/* The length of the valid UTF-8 sequence that starts at p (1 to 4), or 0
 * when the byte there starts none: a stray continuation byte, an overlong
 * form (\xc0\xaf), a surrogate, beyond U+10FFFF, or cut short (a NUL
 * ends every string, so nothing past it is read). */
static size_t utf8Length(const unsigned char* p)
{
	unsigned char c = p[0];
	if (c < 0x80) {
		return 1;
	}
	if (c < 0xc2 || c > 0xf4 || (p[1] & 0xc0) != 0x80) {
		return 0;
	}
	if (c < 0xe0) {
		return 2;
	}
	if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0) || (p[2] & 0xc0) != 0x80) {
		return 0;
	}
	if (c < 0xf0) {
		return 3;
	}
	if ((c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] >= 0x90) || (p[3] & 0xc0) != 0x80) {
		return 0;
	}
	return 4;
}

/* A C1 control character (U+0080 .. U+009F), which some terminals obey. */
static bool isC1(const unsigned char* p, size_t length)
{
	return length == 2 && p[0] == 0xc2 && p[1] < 0xa0;
}

/* \xHH, for one byte. */
static void appendByteEscape(cliBuffer* buffer, unsigned char c)
{
	char escaped[4] = { '\\', 'x', hexDigits[c >> 4], hexDigits[c & 15] };
	cliBuffer_Append(buffer, escaped, 4);
}

void cliBuffer_AppendJsonString(cliBuffer* buffer, const char* text)
{
	cliBuffer_AppendChar(buffer, '"');
	const unsigned char* p = (const unsigned char*)text;
	for (;;) {
		/* plain ASCII in one piece */
		const unsigned char* run = p;
		while (*p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\') {
			++p;
		}
		cliBuffer_Append(buffer, (const char*)run, (size_t)(p - run));
		unsigned char ch = *p;
		if (ch == 0) {
			break;
		}
		if (ch >= 0x80) {
			size_t n = utf8Length(p);
			if (n == 0) {
				/* not UTF-8: the byte as the text \xHH, so the document stays
				 * valid (ballcast's readers refuse such strings) */
				cliBuffer_AppendChar(buffer, '\\'); /* the backslash of \\xHH, escaped for JSON */
				appendByteEscape(buffer, ch);
				++p;
			} else if (isC1(p, n)) {
				char escaped[6] = { '\\', 'u', '0', '0', hexDigits[p[1] >> 4], hexDigits[p[1] & 15] };
				cliBuffer_Append(buffer, escaped, 6);
				p += n;
			} else {
				cliBuffer_Append(buffer, (const char*)p, n);
				p += n;
			}
			continue;
		}
		++p;
		if (ch == '"' || ch == '\\') {
			char escaped[2] = { '\\', (char)ch };
			cliBuffer_Append(buffer, escaped, 2);
		} else if (ch == '\n') {
			cliBuffer_Append(buffer, "\\n", 2);
		} else if (ch == '\r') {
			cliBuffer_Append(buffer, "\\r", 2);
		} else if (ch == '\t') {
			cliBuffer_Append(buffer, "\\t", 2);
		} else {
			char escaped[6] = { '\\', 'u', '0', '0', hexDigits[ch >> 4], hexDigits[ch & 15] };
			cliBuffer_Append(buffer, escaped, 6);
		}
	}
	cliBuffer_AppendChar(buffer, '"');
}

/* The character at p shown safely, appended: TAB, NL, CR as \t \n \r,
 * every other control byte (C0, DEL, C1) and every byte that is not part
 * of valid UTF-8 as \xHH; a backslash as \\ when name (so that a name
 * reads back one way). Returns the bytes of p it took (at least 1). */
static size_t appendShownChar(cliBuffer* buffer, const unsigned char* p, bool name)
{
	unsigned char c = *p;
	size_t n = utf8Length(p);
	if (c == '\t' || c == '\n' || c == '\r') {
		char escaped[2] = { '\\', c == '\t' ? 't' : c == '\n' ? 'n' : 'r' };
		cliBuffer_Append(buffer, escaped, 2);
		return 1;
	}
	if (c == '\\' && name) {
		cliBuffer_Append(buffer, "\\\\", 2);
		return 1;
	}
	if (n == 0 || c < 0x20 || c == 0x7f || isC1(p, n)) {
		for (size_t k = 0; k < (n > 0 ? n : 1); ++k) {
			appendByteEscape(buffer, p[k]);
		}
		return n > 0 ? n : 1;
	}
	cliBuffer_Append(buffer, (const char*)p, n);
	return n;
}

/* Text shown safely (appendShownChar, character by character). */
static void appendShown(cliBuffer* buffer, const char* text, bool name)
{
	const unsigned char* p = (const unsigned char*)text;
	while (*p != 0) {
		p += appendShownChar(buffer, p, name);
	}
}

/* The characters of shown text (UTF-8's lead bytes). */
static size_t shownCharacters(const char* text, size_t length)
{
	size_t n = 0;
	for (size_t k = 0; k < length; ++k) {
		n += ((unsigned char)text[k] & 0xc0) != 0x80;
	}
	return n;
}

bool cliShortName(const char* name, char* out, size_t size)
{
	cliBuffer buffer = { 0 };
	appendShown(&buffer, name, true);
	bool cut = buffer.length + 1 > size || shownCharacters(buffer.data, buffer.length) > CLI_SHOWN_NAME_MAX;
	if (cut) {
		/* again, character by character, while one more and '…' fit */
		buffer.length = 0;
		size_t shown = 0;
		for (const unsigned char* p = (const unsigned char*)name; *p != 0 && !buffer.failed;) {
			size_t before = buffer.length;
			size_t took = appendShownChar(&buffer, p, true);
			size_t characters = shownCharacters(buffer.data + before, buffer.length - before);
			if (shown + characters > CLI_SHOWN_NAME_MAX || buffer.length + sizeof CLI_ELLIPSIS > size) {
				buffer.length = before;
				break;
			}
			shown += characters;
			p += took;
		}
		cliBuffer_Append(&buffer, CLI_ELLIPSIS, sizeof CLI_ELLIPSIS - 1);
	}
	size_t n = buffer.failed || buffer.length >= size ? 0 : buffer.length;
	if (n > 0) {
		memcpy(out, buffer.data, n);
	}
	out[n] = '\0';
	cliBuffer_Free(&buffer);
	return cut;
}

void cliBuffer_AppendName(cliBuffer* buffer, const char* name)
{
	appendShown(buffer, name, true);
}

void cliWriteName(FILE* f, const char* name)
{
	cliBuffer buffer = { 0 };
	appendShown(&buffer, name, true);
	if (buffer.length > 0) {
		fwrite(buffer.data, 1, buffer.length, f);
	}
	cliBuffer_Free(&buffer);
}

char* cliNameText(const char* name)
{
	cliBuffer buffer = { 0 };
	appendShown(&buffer, name, true);
	cliBuffer_AppendChar(&buffer, '\0');
	if (buffer.failed) {
		cliBuffer_Free(&buffer);
		return NULL;
	}
	return buffer.data;
}

void cliWriteShown(FILE* f, const char* text)
{
	cliBuffer buffer = { 0 };
	appendShown(&buffer, text, false);
	if (buffer.length > 0) {
		fwrite(buffer.data, 1, buffer.length, f);
	}
	cliBuffer_Free(&buffer);
}

char* cliShownText(const char* text)
{
	cliBuffer buffer = { 0 };
	appendShown(&buffer, text, false);
	cliBuffer_AppendChar(&buffer, '\0');
	if (buffer.failed) {
		cliBuffer_Free(&buffer);
		return NULL;
	}
	return buffer.data;
}

void cliBuffer_AppendJsonVec3(cliBuffer* buffer, double x, double y, double z)
{
	cliBuffer_AppendChar(buffer, '[');
	cliBuffer_AppendNumber(buffer, x);
	cliBuffer_AppendChar(buffer, ',');
	cliBuffer_AppendNumber(buffer, y);
	cliBuffer_AppendChar(buffer, ',');
	cliBuffer_AppendNumber(buffer, z);
	cliBuffer_AppendChar(buffer, ']');
}

void cliBuffer_AppendCsvField(cliBuffer* buffer, const char* text)
{
	if (text[0] == 0) {
		return;
	}
	/* a cell a spreadsheet would take for a formula gets a leading ' (the
	 * OWASP rule against CSV injection); results_csv.c reads it back
	 * without */
	bool formula = cliStartsLikeFormula(text);
	if (strpbrk(text, ",\"\r\n") == NULL && text[0] != ' ') {
		if (formula) {
			cliBuffer_AppendChar(buffer, '\'');
		}
		cliBuffer_AppendText(buffer, text);
		return;
	}
	cliBuffer_AppendChar(buffer, '"');
	if (formula) {
		cliBuffer_AppendChar(buffer, '\'');
	}
	for (const char* p = text; *p != 0; ++p) {
		if (*p == '"') {
			cliBuffer_AppendChar(buffer, '"');
		}
		cliBuffer_AppendChar(buffer, *p);
	}
	cliBuffer_AppendChar(buffer, '"');
}

/* Write what a buffer writer made, and let it go. */
static void writeBuffer(FILE* f, cliBuffer* buffer)
{
	if (buffer->length > 0) {
		fwrite(buffer->data, 1, buffer->length, f);
	}
	cliBuffer_Free(buffer);
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

void cliWriteNumberMember(FILE* f, const char* key, double value)
{
	fprintf(f, ",\"%s\":", key);
	cliWriteNumber(f, value);
}

void cliWriteIntMember(FILE* f, const char* key, long long value)
{
	fprintf(f, ",\"%s\":%lld", key, value);
}

void cliWriteJsonString(FILE* f, const char* text)
{
	cliBuffer buffer = { 0 };
	cliBuffer_AppendJsonString(&buffer, text);
	writeBuffer(f, &buffer);
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

void cliWriteCsvVec3(FILE* f, bcVec3 v)
{
	putc(',', f);
	cliWriteNumber(f, v.x);
	putc(',', f);
	cliWriteNumber(f, v.y);
	putc(',', f);
	cliWriteNumber(f, v.z);
}

void cliWriteCsvField(FILE* f, const char* text)
{
	cliBuffer buffer = { 0 };
	cliBuffer_AppendCsvField(&buffer, text);
	writeBuffer(f, &buffer);
}
