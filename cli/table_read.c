/* table_read.c - a submission as a table, whatever the file
 * (table_read.h): read whole, binaries named, UTF-16 decoded, then the
 * reader its text calls for. */
#include "table_read.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "table_json.h"
#include "table_kv.h"
#include "table_text.h"
#include "table_xml.h"

/* How much is read before the first bytes are judged: a binary file is
 * refused at once (/dev/zero never fills memory). */
#define CLI_TABLE_FIRST_CHUNK ((size_t)64 * 1024)

/* A text has NUL bytes now and then (a stray one in a cell, which the
 * record that holds it answers for); a binary file has them everywhere:
 * at least one byte in this many of the first chunk (and at least 8, or
 * nothing else). */
#define CLI_BINARY_NUL_SHARE 64

static bool startsWith(const unsigned char* bytes, size_t length, const char* magic, size_t n)
{
	return length >= n && memcmp(bytes, magic, n) == 0;
}

/* Does bytes[0 .. length) hold text (for the first entries of a ZIP)? */
static bool holds(const unsigned char* bytes, size_t length, const char* text)
{
	size_t n = strlen(text);
	for (size_t i = 0; i + n <= length; ++i) {
		if (bytes[i] == (unsigned char)text[0] && memcmp(bytes + i, text, n) == 0) {
			return true;
		}
	}
	return false;
}

const char* cliBinaryKind(const unsigned char* bytes, size_t length)
{
	if (startsWith(bytes, length, "PK\x03\x04", 4) || startsWith(bytes, length, "PK\x05\x06", 4)) {
		if (holds(bytes, length, "xl/") ||
			(holds(bytes, length, "[Content_Types].xml") && holds(bytes, length, "workbook"))) {
			return "an Excel workbook (.xlsx; save it as CSV)";
		}
		if (holds(bytes, length, "opendocument.spreadsheet")) {
			return "a LibreOffice spreadsheet (.ods; save it as CSV)";
		}
		if (holds(bytes, length, "word/")) {
			return "a Word document (.docx), not a results file";
		}
		return "a ZIP archive (unpack it first)";
	}
	static const struct {
		const char* magic;
		size_t length;
		const char* kind;
	} kinds[] = {
		{ "\x1f\x8b", 2, "a gzip-compressed file (decompress it first)" },
		{ "BZh", 3, "a bzip2-compressed file (decompress it first)" },
		{ "\xfd" "7zXZ", 5, "an xz-compressed file (decompress it first)" },
		{ "7z\xbc\xaf\x27\x1c", 6, "a 7-Zip archive (unpack it first)" },
		{ "Rar!", 4, "a RAR archive (unpack it first)" },
		{ "%PDF", 4, "a PDF document, not a results file" },
		{ "\xd0\xcf\x11\xe0", 4, "an old Excel or Word file (.xls, .doc; save it as CSV)" },
		{ "\x89PNG", 4, "a PNG image, not a results file" },
		{ "\xff\xd8\xff", 3, "a JPEG image, not a results file" },
		{ "GIF8", 4, "a GIF image, not a results file" },
		{ "\x7f" "ELF", 4, "a program (ELF), not its output (run it and hand in what it writes)" },
		{ "MZ", 2, "a Windows program (.exe), not its output" },
		{ "\xca\xfe\xba\xbe", 4, "a Java class file (or a program), not its output" },
		{ "\x93NUMPY", 6, "a NumPy .npy array (write it with numpy.savetxt, or as JSON)" },
		{ "\x89HDF", 4, "an HDF5 file (a MATLAB v7.3 .mat?); export it with writetable" },
		{ "MATLAB 5.0 MAT-file", 19, "a MATLAB .mat file (export it with writetable)" },
		{ "SQLite format 3", 15, "an SQLite database, not a results file" },
	};
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k) {
		if (startsWith(bytes, length, kinds[k].magic, kinds[k].length)) {
			return kinds[k].kind;
		}
	}
	if (length >= 2 && bytes[0] == 0x80 && bytes[1] >= 2 && bytes[1] <= 5) {
		return "a Python pickle (write JSON or CSV instead)";
	}
	if (length > 262 && memcmp(bytes + 257, "ustar", 5) == 0) {
		return "a tar archive (unpack it first)";
	}
	size_t nuls = 0;
	for (size_t i = 0; i < length; ++i) {
		nuls += bytes[i] == 0;
	}
	if ((nuls >= 8 && nuls * CLI_BINARY_NUL_SHARE >= length) || (nuls > 0 && nuls == length)) {
		return "binary data (NUL bytes), not text";
	}
	return NULL;
}

/* UTF-16 without a byte order mark: NULs at every other byte of ASCII
 * text. 1 little-endian, 2 big-endian, 0 neither. */
static int utf16Guess(const unsigned char* bytes, size_t length)
{
	size_t n = length < 512 ? length & ~(size_t)1 : 512;
	if (n < 4) {
		return 0;
	}
	size_t evenZero = 0, oddZero = 0;
	for (size_t i = 0; i < n; i += 2) {
		evenZero += bytes[i] == 0;
		oddZero += bytes[i + 1] == 0;
	}
	size_t pairs = n / 2;
	if (oddZero * 10 >= pairs * 9 && evenZero == 0) {
		return 1;
	}
	if (evenZero * 10 >= pairs * 9 && oddZero == 0) {
		return 2;
	}
	return 0;
}

/* Decode UTF-16 (bigEndian or not) bytes[0 .. length) to UTF-8; NULL when
 * out of memory. */
static char* decodeUtf16(const unsigned char* bytes, size_t length, bool bigEndian, size_t* outLength)
{
	char* out = malloc(length / 2 * 3 + 4);
	if (out == NULL) {
		return NULL;
	}
	size_t n = 0;
	for (size_t i = 0; i + 1 < length; i += 2) {
		uint32_t u = bigEndian ? (uint32_t)(bytes[i] << 8 | bytes[i + 1]) : (uint32_t)(bytes[i + 1] << 8 | bytes[i]);
		if (u >= 0xD800 && u < 0xDC00 && i + 3 < length) {
			uint32_t low = bigEndian ? (uint32_t)(bytes[i + 2] << 8 | bytes[i + 3])
									 : (uint32_t)(bytes[i + 3] << 8 | bytes[i + 2]);
			if (low >= 0xDC00 && low < 0xE000) {
				u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00);
				i += 2;
			}
		}
		if (u < 0x80) {
			out[n++] = (char)u;
		} else if (u < 0x800) {
			out[n++] = (char)(0xC0 | (u >> 6));
			out[n++] = (char)(0x80 | (u & 0x3F));
		} else if (u < 0x10000) {
			out[n++] = (char)(0xE0 | (u >> 12));
			out[n++] = (char)(0x80 | ((u >> 6) & 0x3F));
			out[n++] = (char)(0x80 | (u & 0x3F));
		} else {
			out[n++] = (char)(0xF0 | (u >> 18));
			out[n++] = (char)(0x80 | ((u >> 12) & 0x3F));
			out[n++] = (char)(0x80 | ((u >> 6) & 0x3F));
			out[n++] = (char)(0x80 | (u & 0x3F));
		}
	}
	out[n] = '\0';
	*outLength = n;
	return out;
}

static void refuse(bcError* error, bcErrorCode code, const char* message)
{
	memset(error, 0, sizeof *error);
	error->code = code;
	error->record = -1;
	snprintf(error->message, sizeof error->message, "%s", message);
}

void cliWholeText_Free(cliWholeText* text)
{
	free(text->data);
	memset(text, 0, sizeof *text);
}

bool cliWholeText_Read(FILE* stream, cliWholeText* text, bcError* error)
{
	memset(text, 0, sizeof *text);
	size_t capacity = CLI_TABLE_FIRST_CHUNK + 1;
	char* data = malloc(capacity);
	if (data == NULL) {
		refuse(error, bc_errorNoMemory, "out of memory");
		return false;
	}
	size_t length = 0;
	bool judged = false;
	for (;;) {
		if (length + 1 >= capacity) {
			if (capacity > CLI_TABLE_MAX_BYTES) {
				free(data);
				refuse(error, bc_errorSyntax, "larger than 1 GiB: not a results file");
				return false;
			}
			size_t grown = 2 * capacity;
			char* more = realloc(data, grown);
			if (more == NULL) {
				free(data);
				refuse(error, bc_errorNoMemory, "out of memory");
				return false;
			}
			data = more;
			capacity = grown;
		}
		size_t got = fread(data + length, 1, capacity - 1 - length, stream);
		length += got;
		if (!judged && (length >= CLI_TABLE_FIRST_CHUNK || got == 0)) {
			judged = true;
			const unsigned char* bytes = (const unsigned char*)data;
			bool utf16 = startsWith(bytes, length, "\xff\xfe", 2) || startsWith(bytes, length, "\xfe\xff", 2) ||
						 utf16Guess(bytes, length) != 0;
			const char* kind = utf16 ? NULL : cliBinaryKind(bytes, length);
			if (kind != NULL) {
				free(data);
				refuse(error, bc_errorSyntax, kind);
				return false;
			}
		}
		if (got == 0) {
			break;
		}
	}
	if (ferror(stream)) {
		int saved = errno;
		free(data);
		refuse(error, bc_errorIo, strerror(saved != 0 ? saved : EIO));
		return false;
	}
	data[length] = '\0';
	const unsigned char* bytes = (const unsigned char*)data;
	int guess = 0;
	bool le = startsWith(bytes, length, "\xff\xfe", 2);
	bool be = startsWith(bytes, length, "\xfe\xff", 2);
	if (le || be || (guess = utf16Guess(bytes, length)) != 0) {
		size_t skip = le || be ? 2 : 0;
		bool bigEndian = be || guess == 2;
		size_t n = 0;
		char* decoded = decodeUtf16(bytes + skip, length - skip, bigEndian, &n);
		free(data);
		if (decoded == NULL) {
			refuse(error, bc_errorNoMemory, "out of memory");
			return false;
		}
		data = decoded;
		length = n;
		snprintf(text->encoding, sizeof text->encoding, "UTF-16 (%s-endian)", bigEndian ? "big" : "little");
	}
	if (length >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0) {
		memmove(data, data + 3, length - 3 + 1);
		length -= 3;
	}
	text->data = data;
	text->length = length;
	return true;
}

bool cliTextIsBlank(const char* text, size_t length)
{
	for (size_t i = 0; i < length; ++i) {
		char c = text[i];
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') {
			return false;
		}
	}
	return true;
}

/* Does the first line that is not blank hold a section alone ([t001],
 * [[result]])? INI and TOML, not a JSON array. */
static bool startsWithSection(const char* text, size_t length)
{
	size_t i = 0;
	while (i < length && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) {
		i++;
	}
	if (i >= length || text[i] != '[') {
		return false;
	}
	size_t k = i + 1;
	k += k < length && text[k] == '[';
	size_t name = k;
	while (k < length && ((text[k] >= 'a' && text[k] <= 'z') || (text[k] >= 'A' && text[k] <= 'Z') ||
						  (text[k] >= '0' && text[k] <= '9') || text[k] == '_' || text[k] == '-' || text[k] == '.')) {
		k++;
	}
	if (k == name || k >= length || text[k] != ']') {
		return false;
	}
	k++;
	k += k < length && text[k] == ']';
	while (k < length && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r')) {
		k++;
	}
	return k >= length || text[k] == '\n';
}

/* Is every line that is not blank a tag alone holding pairs, as a
 * __repr__ writes an object (<Result id=s000 hit=True alpha=0.5>)? Then a
 * copy with each line's "<Result" and ">" blanked (its columns kept), for
 * the reader of lines of pairs; NULL when not. */
static char* tagLinesAsPairs(const char* text, size_t length)
{
	char* copy = malloc(length + 1);
	if (copy == NULL) {
		return NULL;
	}
	memcpy(copy, text, length);
	copy[length] = '\0';
	size_t lines = 0;
	for (size_t i = 0; i < length;) {
		const char* nl = memchr(copy + i, '\n', length - i);
		size_t end = nl != NULL ? (size_t)(nl - copy) : length;
		size_t a = i, b = end;
		while (a < b && (copy[a] == ' ' || copy[a] == '\t' || copy[a] == '\r')) {
			a++;
		}
		while (b > a && (copy[b - 1] == ' ' || copy[b - 1] == '\t' || copy[b - 1] == '\r')) {
			b--;
		}
		if (a < b) {
			bool tag = b - a > 3 && copy[a] == '<' &&
					   ((copy[a + 1] >= 'a' && copy[a + 1] <= 'z') || (copy[a + 1] >= 'A' && copy[a + 1] <= 'Z')) &&
					   copy[b - 1] == '>' && memchr(copy + a, '=', b - a) != NULL;
			if (!tag) {
				free(copy);
				return NULL;
			}
			size_t k = a;
			while (k < b && copy[k] != ' ' && copy[k] != '\t') {
				copy[k++] = ' '; /* "<Result" */
			}
			copy[b - 1] = ' ';
			if (b - 2 > a && copy[b - 2] == '/') {
				copy[b - 2] = ' '; /* "/>" */
			}
			lines++;
		}
		i = end + 1;
	}
	if (lines == 0) {
		free(copy);
		return NULL;
	}
	return copy;
}

bool cliTable_ReadAny(cliTable* t, const char* text, size_t length, bcError* error)
{
	bool ok;
	if (cliLooksLikeMarkup(text, length)) {
		ok = cliTable_ReadMarkup(t, text, length, error);
		char* pairs = NULL;
		if (!ok && t->total == 0 && !t->noMemory && (pairs = tagLinesAsPairs(text, length)) != NULL) {
			/* not a document: an object per line, as its __repr__ writes it */
			bcError markup = *error;
			ok = cliLooksLikeKeyValues(pairs, length) && cliTable_ReadKeyValues(t, pairs, length, error);
			if (ok) {
				cliTable_Note(t, "each line's '<Name' and '>' set aside");
			} else {
				*error = markup;
			}
			free(pairs);
		}
		return ok && cliTable_Finish(t);
	}
	if (startsWithSection(text, length) && cliLooksLikeKeyValues(text, length)) {
		ok = cliTable_ReadKeyValues(t, text, length, error);
	} else if (cliLooksLikeLiteral(text, length)) {
		ok = cliTable_ReadLiteral(t, text, length, error);
	} else if (cliLooksLikeKeyValues(text, length)) {
		ok = cliTable_ReadKeyValues(t, text, length, error);
	} else {
		ok = cliTable_ReadText(t, text, length, error);
	}
	return ok && cliTable_Finish(t);
}
