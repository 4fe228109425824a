/* mesh_load.c - a mesh file of any format into a bcMesh: the bytes read
 * (from a path, a stream or memory) within a limit, the format chosen by
 * extension and confirmed by the first bytes, text refused when it holds
 * NUL bytes or is UTF-16, and the reader of that format called
 * (bcMesh_Load, bcMesh_Parse, bcMesh_Read).
 *
 * Files are read with read(2) into memory, never mapped: a mapped file
 * truncated by another process while it is parsed kills the process with
 * SIGBUS. Instead the file's size and times are taken before and after the
 * read, and a file that changed meanwhile is refused ("changed while it
 * was read"). A binary STL file, once its first 84 bytes tell it is one, is
 * read a chunk at a time by its reader instead (stl.c), as reading it
 * whole would have read it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "core.h"
#include "mesh_build.h"

/* The byte limit. Tests build a second copy of this file with a small one
 * to reach the bc_errorTooLarge paths. */
#ifndef BC_LOAD_MAX_BYTES
#define BC_LOAD_MAX_BYTES ((unsigned long long)BC_MAX_MESH_BYTES)
#endif

/* Bytes asked of read(2) at most per call (Linux moves at most about 2 GiB
 * per call anyway), and the first buffer of an input whose size is not
 * known (it doubles from there). */
#define BC_LOAD_READ_CHUNK ((size_t)1 << 30)
#define BC_LOAD_FIRST_CAPACITY ((size_t)1 << 16)

/* The bytes looked at before the format is guessed: a binary STL's header
 * and triangle count, and more than any magic. */
#define BC_LOAD_SNIFF_BYTES 84

/* A binary STL: an 80-byte header, a 32-bit triangle count, 50 bytes per
 * triangle. */
#define BC_STL_HEADER_BYTES 80
#define BC_STL_PREFIX_BYTES 84
#define BC_STL_TRIANGLE_BYTES 50

bcObjOptions bcDefaultObjOptions(void)
{
	bcObjOptions options = { 0 };
	return options;
}

bcMesh* bcMesh_ParseObj(const char* text, size_t length, const bcObjOptions* options, bcError* error)
{
	bcObjOptions settings = options != NULL ? *options : bcDefaultObjOptions();
	return bcReadObj(text, length, settings.threadCount, error);
}

bcMesh* bcMesh_LoadObj(const char* path, const bcObjOptions* options, bcError* error)
{
	return bcMesh_Load(path, bc_meshObj, options, error);
}

const char* bcMeshFormatName(bcMeshFormat format)
{
	switch (format) {
	case bc_meshAuto:
		return "auto";
	case bc_meshObj:
		return "obj";
	case bc_meshStl:
		return "stl";
	case bc_meshPly:
		return "ply";
	case bc_meshOff:
		return "off";
	default:
		return "?";
	}
}

/* The format's name in messages: "OBJ". */
static const char* upperName(bcMeshFormat format)
{
	static const char* const names[] = { "a mesh", "OBJ", "STL", "PLY", "OFF" };
	return (unsigned)format < sizeof names / sizeof names[0] ? names[format] : "?";
}

/* The format a file name's extension names, bc_meshAuto for none. */
static bcMeshFormat formatOfPath(const char* path)
{
	const char* slash = strrchr(path, '/');
	const char* name = slash != NULL ? slash + 1 : path;
	const char* dot = strrchr(name, '.');
	if (dot == NULL || dot == name) {
		return bc_meshAuto;
	}
	char extension[5] = { 0 };
	size_t length = strlen(dot + 1);
	if (length != 3) {
		return bc_meshAuto;
	}
	for (size_t i = 0; i < length; ++i) {
		char c = dot[1 + i];
		extension[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
	}
	for (int f = bc_meshObj; f <= bc_meshOff; ++f) {
		if (strcmp(extension, bcMeshFormatName((bcMeshFormat)f)) == 0) {
			return (bcMeshFormat)f;
		}
	}
	return bc_meshAuto;
}

/* The triangle count of a binary STL's header (data has at least 84 bytes),
 * and the size in bytes it implies. */
static unsigned long long stlBinarySize(const unsigned char* data)
{
	const unsigned char* c = data + BC_STL_HEADER_BYTES;
	unsigned long long count = (unsigned long long)c[0] | (unsigned long long)c[1] << 8 |
							   (unsigned long long)c[2] << 16 | (unsigned long long)c[3] << 24;
	return BC_STL_PREFIX_BYTES + BC_STL_TRIANGLE_BYTES * count;
}

static bool startsWith(const unsigned char* data, size_t length, const char* prefix, bool anyCase)
{
	size_t n = strlen(prefix);
	if (length < n) {
		return false;
	}
	for (size_t i = 0; i < n; ++i) {
		unsigned char c = data[i];
		if (anyCase && c >= 'A' && c <= 'Z') {
			c = (unsigned char)(c - 'A' + 'a');
		}
		if (c != (unsigned char)prefix[i]) {
			return false;
		}
	}
	return true;
}

/* What the first bytes say (a UTF-8 byte order mark skipped), by magic
 * alone: "ply" and a line end, an OFF keyword (OFF, COFF, NOFF, CNOFF)
 * followed by a blank, "solid" (ASCII STL, or a binary one whose header
 * says so); bc_meshAuto when none. */
static bcMeshFormat formatOfMagic(const unsigned char* data, size_t length)
{
	if (startsWith(data, length, "\xEF\xBB\xBF", false)) {
		data += 3;
		length -= 3;
	}
	if (startsWith(data, length, "ply\n", false) || startsWith(data, length, "ply\r\n", false)) {
		return bc_meshPly;
	}
	static const char* const offKeywords[] = { "OFF", "COFF", "NOFF", "CNOFF" };
	for (size_t k = 0; k < sizeof offKeywords / sizeof offKeywords[0]; ++k) {
		size_t n = strlen(offKeywords[k]);
		if (startsWith(data, length, offKeywords[k], false) &&
			(length == n || data[n] == ' ' || data[n] == '\t' || data[n] == '\r' || data[n] == '\n' ||
			 data[n] == '#')) {
			return bc_meshOff;
		}
	}
	if (startsWith(data, length, "solid", true)) {
		return bc_meshStl;
	}
	return bc_meshAuto;
}

/* The line and column of data[offset] (columns count bytes; on line 1,
 * after a byte order mark, as the text readers count them). */
static void positionOf(const unsigned char* data, size_t offset, long* line, long* column)
{
	size_t start = startsWith(data, offset, "\xEF\xBB\xBF", false) ? 3 : 0;
	long l = 1;
	size_t lineStart = start;
	for (size_t i = start; i < offset; ++i) {
		if (data[i] == '\n') {
			l += 1;
			lineStart = i + 1;
		}
	}
	*line = l;
	*column = (long)(offset - lineStart) + 1;
}

/* Refuse text that holds a NUL byte: "binary data (NUL bytes)", at the
 * first one, or "UTF-16 text" when every other byte of its start is NUL or
 * it starts with a UTF-16 byte order mark. True when the text is clean. */
static bool checkText(const unsigned char* data, size_t length, bcMeshFormat format, bcError* error)
{
	if (startsWith(data, length, "\xFF\xFE", false) || startsWith(data, length, "\xFE\xFF", false)) {
		bcSetError(error, bc_errorFormat, 1, 1,
				   "UTF-16 text (a UTF-16 byte order mark): %s is read as UTF-8 or ASCII; save the file as UTF-8",
				   upperName(format));
		return false;
	}
	const unsigned char* nul = memchr(data, 0, length);
	if (nul == NULL) {
		return true;
	}
	size_t at = (size_t)(nul - data);
	/* UTF-16 without a byte order mark: ASCII with a NUL after (or before)
	 * every byte */
	bool utf16 = length >= 4 && at <= 1;
	for (size_t i = at; utf16 && i < length && i < 64; i += 2) {
		utf16 = data[i] == 0 && (i ^ 1) < length && data[i ^ 1] != 0;
	}
	long line, column;
	positionOf(data, at, &line, &column);
	if (utf16) {
		bcSetError(error, bc_errorFormat, line, column,
				   "UTF-16 text (NUL bytes between the characters): %s is read as UTF-8 or ASCII; save the file as "
				   "UTF-8",
				   upperName(format));
	} else {
		bcSetError(error, bc_errorFormat, line, column, "binary data (NUL bytes): %s is text", upperName(format));
	}
	return false;
}

/* The format to read data (complete) as: requested when named, else the
 * extension's, else the first bytes'; each checked against the first bytes.
 * bc_meshAuto, error filled, when they disagree. */
static bcMeshFormat chooseFormat(const unsigned char* data, size_t length, bcMeshFormat requested,
								 bcMeshFormat extension, bcError* error)
{
	bcMeshFormat magic = formatOfMagic(data, length);
	bcMeshFormat chosen = requested != bc_meshAuto ? requested : extension;
	/* Text that holds NUL bytes (or is UTF-16) is refused as such before
	 * anything else is said about it, as a stream is refused as soon as
	 * the bytes are read. */
	bool text = chosen == bc_meshObj || chosen == bc_meshOff;
	if (text && magic == bc_meshAuto && !checkText(data, length, chosen, error)) {
		return bc_meshAuto;
	}
	bool binaryStl = length >= BC_STL_PREFIX_BYTES && stlBinarySize(data) == length;
	bool hasNul = memchr(data, 0, length) != NULL;
	if (magic == bc_meshAuto && binaryStl && hasNul) {
		magic = bc_meshStl; /* a binary STL's size, and binary data */
	}
	if (chosen == bc_meshAuto) {
		return magic != bc_meshAuto ? magic : bc_meshObj;
	}
	/* Every format but OBJ has its magic (a binary STL its size), so a
	 * disagreement is certain when the magic names another one, or none
	 * for PLY and OFF. */
	bool agrees = magic == chosen || (magic == bc_meshAuto && (chosen == bc_meshObj || chosen == bc_meshStl));
	if (agrees) {
		return chosen;
	}
	const char* by = requested != bc_meshAuto ? "asked for" : "the file name says";
	if (magic == bc_meshAuto) {
		char found[48];
		size_t n = 0;
		while (n < length && n < 12 && data[n] != '\n' && data[n] != '\r') {
			++n;
		}
		bcQuoteToken(found, sizeof found, (const char*)data, (const char*)data + n);
		bcSetError(error, bc_errorFormat, 1, 1, "%s %s, but the file does not start as %s does (%s): found '%s'", by,
				   upperName(chosen), upperName(chosen), chosen == bc_meshPly ? "'ply'" : "'OFF'", found);
	} else {
		bcSetError(error, bc_errorFormat, 1, 1, "%s %s, but the first bytes are %s's (%s)", by, upperName(chosen),
				   upperName(magic),
				   magic == bc_meshPly	 ? "'ply'"
				   : magic == bc_meshOff ? "an OFF keyword"
				   : binaryStl			 ? "a binary STL's size, 84 + 50 bytes per triangle"
										 : "'solid'");
	}
	return bc_meshAuto;
}

/* Read data as format; the caller's bytes are left alone. */
static bcMesh* readAs(const unsigned char* data, size_t length, bcMeshFormat format, int threadCount, bcError* error)
{
	switch (format) {
	case bc_meshStl:
		return bcReadStl(data, length, threadCount, error);
	case bc_meshPly:
		return bcReadPly(data, length, threadCount, error);
	case bc_meshOff:
		if (!checkText(data, length, format, error)) {
			return NULL;
		}
		return bcReadOff((const char*)data, length, threadCount, error);
	default:
		if (!checkText(data, length, bc_meshObj, error)) {
			return NULL;
		}
		return bcReadObj((const char*)data, length, threadCount, error);
	}
}

static bcMesh* parseBytes(const unsigned char* data, size_t length, bcMeshFormat requested, bcMeshFormat extension,
						  int threadCount, bcError* error)
{
	if ((unsigned long long)length > BC_LOAD_MAX_BYTES) {
		bcSetError(error, bc_errorTooLarge, 0, 0, "the mesh has %llu bytes, more than the %llu a mesh may have",
				   (unsigned long long)length, BC_LOAD_MAX_BYTES);
		return NULL;
	}
	bcMeshFormat format = chooseFormat(data, length, requested, extension, error);
	if (format == bc_meshAuto) {
		return NULL;
	}
	return readAs(data, length, format, threadCount, error);
}

bcMesh* bcMesh_Parse(const void* data, size_t length, bcMeshFormat format, const bcObjOptions* options,
					 bcError* error)
{
	if (data == NULL && length > 0) {
		bcSetError(error, bc_errorValue, 0, 0, "no data given");
		return NULL;
	}
	if ((unsigned)format > bc_meshOff) {
		bcSetError(error, bc_errorValue, 0, 0, "unknown mesh format %d", (int)format);
		return NULL;
	}
	bcObjOptions settings = options != NULL ? *options : bcDefaultObjOptions();
	return parseBytes(data != NULL ? data : (const void*)"", length, format, bc_meshAuto, settings.threadCount,
					  error);
}

/* ------------------------------------------------------------ reading */

/* Where the bytes come from: a descriptor (read(2)) or a stream (fread). */
typedef struct bcSource {
	int fd;
	FILE* stream;
	long long size; /* a regular file's size, else -1 */
	bcMeshFormat requested;
	bcMeshFormat extension;
} bcSource;

/* Read up to n bytes; the count, 0 at the end, -1 with errno on failure. */
static long long readSome(const bcSource* source, unsigned char* buffer, size_t n)
{
	if (source->stream != NULL) {
		errno = 0;
		size_t got = fread(buffer, 1, n, source->stream);
		if (got == 0 && ferror(source->stream)) {
			if (errno == 0) {
				errno = EIO;
			}
			return -1;
		}
		return (long long)got;
	}
	for (;;) {
		ssize_t got = read(source->fd, buffer, n);
		if (got < 0 && errno == EINTR) {
			continue;
		}
		return (long long)got;
	}
}

/* What the first bytes (at least BC_LOAD_SNIFF_BYTES, or all there are)
 * tell the reading loop: the text format the input must be in (a NUL byte
 * then stops reading at once; bc_meshAuto when it may be binary) and how
 * many bytes it may have at most. False,
 * error filled, when the input is refused already. */
static bool planReading(const bcSource* source, const unsigned char* data, size_t length, bcMeshFormat* textOnly,
						unsigned long long* limit, bcError* error)
{
	*textOnly = bc_meshAuto;
	*limit = BC_LOAD_MAX_BYTES;
	bcMeshFormat chosen = source->requested != bc_meshAuto ? source->requested : source->extension;
	bcMeshFormat magic = formatOfMagic(data, length);
	bool nul = memchr(data, 0, length) != NULL;
	unsigned long long stlSize = length >= BC_STL_PREFIX_BYTES ? stlBinarySize(data) : 0;
	/* a binary STL is possible without magic (or with "solid"): its header
	 * then bounds the input */
	bool stlPossible = stlSize > 0 && (chosen == bc_meshStl || (chosen == bc_meshAuto && magic == bc_meshAuto && nul) ||
									   (magic == bc_meshStl && chosen != bc_meshPly && chosen != bc_meshOff));
	if (stlPossible && stlSize <= BC_LOAD_MAX_BYTES && magic != bc_meshStl && source->size < 0) {
		*limit = stlSize; /* a stream: one byte more is too many */
	}
	if (chosen != bc_meshAuto && magic != bc_meshAuto && magic != chosen) {
		/* the first bytes already say another format */
		chooseFormat(data, length, source->requested, source->extension, error);
		return false;
	}
	if (stlPossible && source->size >= 0 && (unsigned long long)source->size == stlSize) {
		return true; /* a binary STL by its size */
	}
	if (chosen == bc_meshAuto) {
		chosen = magic != bc_meshAuto ? magic : (nul && stlPossible ? bc_meshStl : bc_meshObj);
	}
	if (chosen == bc_meshObj || chosen == bc_meshOff) {
		*textOnly = chosen;
		return checkText(data, length, chosen, error);
	}
	return true;
}

/* Read the whole source into *data (bcAlloc'd) within the byte limit,
 * refusing text with NUL bytes as soon as they are read. */
static bool readSource(const bcSource* source, unsigned char** data, size_t* length, bcError* error)
{
	size_t capacity = source->size >= 0 ? (size_t)source->size + 1 : BC_LOAD_FIRST_CAPACITY;
	if (source->size >= 0 && (unsigned long long)source->size > BC_LOAD_MAX_BYTES) {
		bcSetError(error, bc_errorTooLarge, 0, 0, "the file has %lld bytes, more than the %llu a mesh may have",
				   source->size, BC_LOAD_MAX_BYTES);
		return false;
	}
	unsigned char* buffer = bcAlloc(capacity);
	if (buffer == NULL) {
		bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory reading the file (%zu bytes)", capacity);
		return false;
	}
	size_t used = 0;
	bool planned = false;
	bcMeshFormat textOnly = bc_meshAuto; /* a text format: a NUL byte stops reading */
	unsigned long long limit = BC_LOAD_MAX_BYTES;
	for (;;) {
		if (used == capacity) {
			size_t grown = capacity <= SIZE_MAX / 2 ? 2 * capacity : SIZE_MAX;
			if ((unsigned long long)grown > limit + 1) {
				grown = (size_t)(limit + 1);
			}
			unsigned char* bigger = grown > capacity ? bcRealloc(buffer, grown) : NULL;
			if (bigger == NULL) {
				bcFree(buffer);
				bcSetError(error, bc_errorNoMemory, 0, 0, "out of memory reading the file (%zu bytes)", grown);
				return false;
			}
			buffer = bigger;
			capacity = grown;
		}
		size_t request = capacity - used < BC_LOAD_READ_CHUNK ? capacity - used : BC_LOAD_READ_CHUNK;
		long long got = readSome(source, buffer + used, request);
		if (got < 0) {
			int code = errno;
			bcFree(buffer);
			bcSetIoError(error, "cannot read", code);
			return false;
		}
		size_t before = used;
		used += (size_t)got;
		bool end = got == 0;
		if (!planned && (used >= BC_LOAD_SNIFF_BYTES || end)) {
			planned = true;
			if (!planReading(source, buffer, used, &textOnly, &limit, error)) {
				bcFree(buffer);
				return false;
			}
		} else if (planned && textOnly != bc_meshAuto && memchr(buffer + before, 0, used - before) != NULL) {
			checkText(buffer, used, textOnly, error);
			bcFree(buffer);
			return false;
		}
		if ((unsigned long long)used > limit) {
			bcFree(buffer);
			unsigned long long triangles = (limit - BC_STL_PREFIX_BYTES) / BC_STL_TRIANGLE_BYTES;
			if (limit < BC_LOAD_MAX_BYTES && source->requested == bc_meshStl) {
				bcSetByteError(error, bc_errorFormat, 81,
							   "a binary STL whose header counts %llu triangles has %llu bytes, but the input has "
							   "more (data after the triangles, or a wrong count)",
							   triangles, limit);
			} else if (limit < BC_LOAD_MAX_BYTES) {
				bcSetError(error, bc_errorFormat, 0, 0,
						   "binary data (NUL bytes), and not a binary STL: its header counts %llu triangles, %llu "
						   "bytes, and there are more",
						   triangles, limit);
			} else {
				bcSetError(error, bc_errorTooLarge, 0, 0, "more than %llu bytes, the most a mesh may have", limit);
			}
			return false;
		}
		if (end) {
			*data = buffer;
			*length = used;
			return true;
		}
	}
}

/* Did the file (fd; its status before, length bytes read) change while it
 * was read? Then its bytes may be half old, half new: error filled. */
static bool fileChanged(int fd, const struct stat* before, long long length, bcError* error)
{
	struct stat after;
	bool changed = fstat(fd, &after) != 0 || after.st_size != before->st_size || length != (long long)before->st_size ||
				   after.st_mtim.tv_sec != before->st_mtim.tv_sec || after.st_mtim.tv_nsec != before->st_mtim.tv_nsec ||
				   after.st_ctim.tv_sec != before->st_ctim.tv_sec || after.st_ctim.tv_nsec != before->st_ctim.tv_nsec;
	if (changed) {
		bcSetError(error, bc_errorIo, 0, 0,
				   "the file changed while it was read (%lld bytes before, %lld read, %lld after)",
				   (long long)before->st_size, length, (long long)after.st_size);
	}
	return changed;
}

static bcMesh* loadSource(const bcSource* source, int threadCount, const struct stat* before, bcError* error)
{
	unsigned char* data = NULL;
	size_t length = 0;
	if (!readSource(source, &data, &length, error)) {
		return NULL;
	}
	if (before != NULL && fileChanged(source->fd, before, (long long)length, error)) {
		/* a file another process changed while it was read */
		bcFree(data);
		return NULL;
	}
	bcMesh* mesh = parseBytes(data, length, source->requested, source->extension, threadCount, error);
	bcFree(data);
	return mesh;
}

/* Would the regular file of source (size bytes) be read whole as a binary
 * STL, as parseBytes decides on all its bytes? Its size is 84 + 50 bytes per
 * triangle its header counts, within the limit; STL is asked for or named
 * by the extension (and the first bytes name no other format), or nothing
 * is and the first bytes say "solid" or hold a NUL byte (binary data).
 * Only the first 84 bytes are read: when they cannot tell (no NUL among
 * them), false, and the file is read whole. */
static bool binaryStlFile(const bcSource* source)
{
	unsigned char prefix[BC_STL_PREFIX_BYTES];
	ssize_t got;
	do {
		got = source->size >= BC_STL_PREFIX_BYTES && (unsigned long long)source->size <= BC_LOAD_MAX_BYTES
				  ? pread(source->fd, prefix, sizeof prefix, 0)
				  : 0;
	} while (got < 0 && errno == EINTR);
	if (got != (ssize_t)sizeof prefix || stlBinarySize(prefix) != (unsigned long long)source->size) {
		return false;
	}
	bcMeshFormat chosen = source->requested != bc_meshAuto ? source->requested : source->extension;
	bcMeshFormat magic = formatOfMagic(prefix, sizeof prefix);
	if (chosen == bc_meshStl) {
		return magic == bc_meshAuto || magic == bc_meshStl;
	}
	return chosen == bc_meshAuto &&
		   (magic == bc_meshStl || (magic == bc_meshAuto && memchr(prefix, 0, sizeof prefix) != NULL));
}

bcMesh* bcMesh_Load(const char* path, bcMeshFormat format, const bcObjOptions* options, bcError* error)
{
	if (path == NULL) {
		bcSetError(error, bc_errorIo, 0, 0, "no file name given");
		return NULL;
	}
	if ((unsigned)format > bc_meshOff) {
		bcSetError(error, bc_errorValue, 0, 0, "unknown mesh format %d", (int)format);
		return NULL;
	}
	bcObjOptions settings = options != NULL ? *options : bcDefaultObjOptions();
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		bcSetIoError(error, "cannot open", errno);
		return NULL;
	}
	struct stat status;
	if (fstat(fd, &status) != 0) {
		bcSetIoError(error, "cannot read", errno);
		close(fd);
		return NULL;
	}
	if (S_ISDIR(status.st_mode)) {
		bcSetIoError(error, "cannot read", EISDIR);
		close(fd);
		return NULL;
	}
	bool regular = S_ISREG(status.st_mode) && status.st_size > 0;
	bcSource source = { fd, NULL, regular ? (long long)status.st_size : -1, format, formatOfPath(path) };
	bcMesh* mesh;
	if (regular && binaryStlFile(&source)) {
		/* read a chunk at a time: a large file's pages cost more to
		 * allocate than to read */
		mesh = bcReadStlFile(fd, settings.threadCount, error);
		bcError changed;
		if (fileChanged(fd, &status, source.size, &changed)) {
			/* said instead of what the changing bytes made the reader say */
			bcMesh_Destroy(mesh);
			mesh = NULL;
			if (error != NULL) {
				*error = changed;
			}
		}
	} else {
		mesh = loadSource(&source, settings.threadCount, regular ? &status : NULL, error);
	}
	close(fd);
	return mesh;
}

bcMesh* bcMesh_Read(FILE* stream, bcMeshFormat format, const bcObjOptions* options, bcError* error)
{
	if (stream == NULL) {
		bcSetError(error, bc_errorIo, 0, 0, "no stream given");
		return NULL;
	}
	if ((unsigned)format > bc_meshOff) {
		bcSetError(error, bc_errorValue, 0, 0, "unknown mesh format %d", (int)format);
		return NULL;
	}
	bcObjOptions settings = options != NULL ? *options : bcDefaultObjOptions();
	bcSource source = { -1, stream, -1, format, bc_meshAuto };
	return loadSource(&source, settings.threadCount, NULL, error);
}
