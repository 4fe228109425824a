/* mesh_load.c - unit tests of loading a mesh of any format
 * (lib/mesh_load.c): the format by extension confirmed by the first bytes,
 * memory, streams and files alike, text with NUL bytes or UTF-16 refused,
 * and a file changed while it is read refused instead of killing the
 * process (SIGBUS when it was mapped). */
#define _DEFAULT_SOURCE /* mkstemps */
#include <check.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ballcast.h"
#include "harness.h"

/* A second copy of the loader with a byte limit of 100, to reach the
 * limit's message without 8 GiB; its public functions renamed. */
#define BC_LOAD_MAX_BYTES 100ULL
#define bcMeshFormatName smallFormatName
#define bcMesh_Parse smallParse
#define bcMesh_Load smallLoad
#define bcMesh_Read smallRead
#define bcDefaultObjOptions smallDefaultObjOptions
#define bcMesh_ParseObj smallParseObj
#define bcMesh_LoadObj smallLoadObj
bcObjOptions smallDefaultObjOptions(void);
bcMesh* smallParseObj(const char* text, size_t length, const bcObjOptions* options, bcError* error);
bcMesh* smallLoadObj(const char* path, const bcObjOptions* options, bcError* error);
const char* smallFormatName(bcMeshFormat format);
bcMesh* smallParse(const void* data, size_t length, bcMeshFormat format, const bcObjOptions* options, bcError* error);
bcMesh* smallLoad(const char* path, bcMeshFormat format, const bcObjOptions* options, bcError* error);
bcMesh* smallRead(FILE* stream, bcMeshFormat format, const bcObjOptions* options, bcError* error);
#include "../../lib/mesh_load.c"
#undef bcMeshFormatName
#undef bcMesh_Parse
#undef bcMesh_Load
#undef bcMesh_Read
#undef bcDefaultObjOptions
#undef bcMesh_ParseObj
#undef bcMesh_LoadObj

static const char* squareObj = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n";
static const char* squareOff = "OFF\n4 1 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n4 0 1 2 3\n";

/* Write text to a new file named with suffix; the path is static. */
static const char* writeFile(const char* suffix, const void* data, size_t size)
{
	static char path[64];
	snprintf(path, sizeof path, "/tmp/ballcast-load-XXXXXX%s", suffix);
	int fd = mkstemps(path, (int)strlen(suffix));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, data, size), (ssize_t)size);
	close(fd);
	return path;
}

START_TEST(formatByExtensionAndMagic)
{
	bcError error = { 0 };
	const char* path = writeFile(".OFF", squareOff, strlen(squareOff));
	bcMesh* mesh = bcMesh_Load(path, bc_meshAuto, NULL, &error);
	ck_assert_msg(mesh != NULL, "%s", error.message);
	ck_assert_int_eq(bcMesh_GetInfo(mesh).format, bc_meshOff);
	ck_assert_int_eq(bcMesh_GetInfo(mesh).triangleCount, 2);
	bcMesh_Destroy(mesh);
	unlink(path);
	/* an OFF file named .obj: the first bytes disagree */
	path = writeFile(".obj", squareOff, strlen(squareOff));
	ck_assert_ptr_null(bcMesh_Load(path, bc_meshAuto, NULL, &error));
	ck_assert_int_eq(error.code, bc_errorFormat);
	ck_assert_str_eq(error.message, "the file name says OBJ, but the first bytes are OFF's (an OFF keyword)");
	/* named, it is read */
	mesh = bcMesh_Load(path, bc_meshOff, NULL, &error);
	ck_assert_ptr_nonnull(mesh);
	bcMesh_Destroy(mesh);
	unlink(path);
	/* no extension: the first bytes decide, OBJ by default */
	mesh = bcMesh_Parse(squareObj, strlen(squareObj), bc_meshAuto, NULL, &error);
	ck_assert_int_eq(bcMesh_GetInfo(mesh).format, bc_meshObj);
	bcMesh_Destroy(mesh);
	ck_assert_ptr_null(bcMesh_Parse(squareObj, strlen(squareObj), bc_meshPly, NULL, &error));
	ck_assert_str_eq(error.message, "asked for PLY, but the file does not start as PLY does ('ply'): found 'v 0 0 0'");
	ck_assert_ptr_null(bcMesh_Parse(squareObj, strlen(squareObj), (bcMeshFormat)9, NULL, &error));
	ck_assert_str_eq(bcMeshFormatName(bc_meshStl), "stl");
}
END_TEST

START_TEST(streamsAsMemory)
{
	FILE* stream = fmemopen((void*)squareOff, strlen(squareOff), "rb");
	bcError error = { 0 };
	bcMesh* mesh = bcMesh_Read(stream, bc_meshAuto, NULL, &error);
	fclose(stream);
	ck_assert_msg(mesh != NULL, "%s", error.message);
	ck_assert_int_eq(bcMesh_GetInfo(mesh).format, bc_meshOff);
	bcMesh_Destroy(mesh);
	/* a stream of zeros is refused after its first bytes, as binary data */
	static char zeros[1 << 20];
	stream = fmemopen(zeros, sizeof zeros, "rb");
	ck_assert_ptr_null(bcMesh_Read(stream, bc_meshAuto, NULL, &error));
	ck_assert_int_eq(ftell(stream) < (long)sizeof zeros, 1);
	fclose(stream);
	ck_assert_str_eq(error.message,
					 "binary data (NUL bytes), and not a binary STL: its header counts 0 triangles, 84 bytes, and "
					 "there are more");
}
END_TEST

START_TEST(binaryTextRefused)
{
	bcError error = { 0 };
	const char withNul[] = "v 0 0 0\nv 1 0 0\nv 0 1\0 0\nf 1 2 3\n";
	ck_assert_ptr_null(bcMesh_Parse(withNul, sizeof withNul - 1, bc_meshObj, NULL, &error));
	ck_assert_int_eq(error.line, 3);
	ck_assert_int_eq(error.column, 6);
	ck_assert_str_eq(error.message, "binary data (NUL bytes): OBJ is text");
	const char utf16[] = "v\0 \0000\0 \0000\0";
	ck_assert_ptr_null(bcMesh_Parse(utf16, sizeof utf16 - 1, bc_meshAuto, NULL, &error));
	ck_assert(strstr(error.message, "UTF-16 text") != NULL);
}
END_TEST

/* An allocator that truncates a file at its first large allocation: the
 * moment a reader has opened and sized the file and is about to read it
 * (or, when mapped, to parse it). */
static const char* truncatePath;

static void* truncatingAlloc(size_t size, size_t alignment, void* context)
{
	(void)context;
	if (truncatePath != NULL && size > 4096) {
		ck_assert_int_eq(truncate(truncatePath, 10), 0);
		truncatePath = NULL;
	}
	void* memory = NULL;
	return posix_memalign(&memory, alignment < sizeof(void*) ? sizeof(void*) : alignment, size) == 0 ? memory
																										: NULL;
}

static void* plainRealloc(void* memory, size_t size, void* context)
{
	(void)context;
	return realloc(memory, size);
}

static void plainFree(void* memory, void* context)
{
	(void)context;
	free(memory);
}

START_TEST(fileChangedWhileRead)
{
	/* a mesh of some 100 kB, truncated under the reader's feet: mapped, this
	 * died by SIGBUS; read, it is refused */
	size_t capacity = 1 << 18;
	char* text = malloc(capacity);
	size_t used = 0;
	for (int i = 0; i < 3000; ++i) {
		used += (size_t)snprintf(text + used, capacity - used, "v %d 0 0\nv %d 1 0\nv %d 0 1\n", i, i, i);
	}
	for (int i = 0; i < 3000; ++i) {
		used += (size_t)snprintf(text + used, capacity - used, "f %d %d %d\n", 3 * i + 1, 3 * i + 2, 3 * i + 3);
	}
	const char* path = writeFile(".obj", text, used);
	free(text);
	bcAllocator allocator = { truncatingAlloc, plainRealloc, plainFree, NULL };
	bcSetAllocator(&allocator);
	truncatePath = path;
	bcError error = { 0 };
	bcMesh* mesh = bcMesh_Load(path, bc_meshAuto, NULL, &error);
	ck_assert_ptr_null(mesh);
	ck_assert_int_eq(error.code, bc_errorIo);
	ck_assert_msg(strstr(error.message, "the file changed while it was read") != NULL, "%s", error.message);
	unlink(path);
}
END_TEST

START_TEST(binaryStlChangedWhileRead)
{
	/* a binary STL of 10,000 triangles (read a chunk at a time, not whole),
	 * truncated once the reader has sized it: refused as changed, not
	 * read as what was left or said to be cut short */
	uint32_t count = 10000;
	size_t size = 84 + 50 * (size_t)count;
	unsigned char* data = calloc(size, 1);
	ck_assert_ptr_nonnull(data);
	memcpy(data, "binary", 6);
	for (int k = 0; k < 4; ++k) {
		data[80 + k] = (unsigned char)(count >> (8 * k));
	}
	for (uint32_t i = 0; i < count; ++i) {
		float corners[9] = { (float)i, 0, 0, (float)i, 1, 0, (float)i, 0, 1 };
		memcpy(data + 84 + 50 * (size_t)i + 12, corners, sizeof corners); /* little-endian machines */
	}
	const char* path = writeFile(".stl", data, size);
	bcMesh* mesh = bcMesh_Load(path, bc_meshAuto, NULL, NULL);
	ck_assert_ptr_nonnull(mesh); /* whole, it reads */
	ck_assert_int_eq(bcMesh_GetInfo(mesh).triangleCount, (int32_t)count);
	bcMesh_Destroy(mesh);
	bcAllocator allocator = { truncatingAlloc, plainRealloc, plainFree, NULL };
	bcSetAllocator(&allocator);
	truncatePath = path;
	bcError error = { 0 };
	mesh = bcMesh_Load(path, bc_meshAuto, NULL, &error);
	bcSetAllocator(NULL);
	ck_assert_ptr_null(mesh);
	ck_assert_int_eq(error.code, bc_errorIo);
	ck_assert_msg(strstr(error.message, "the file changed while it was read") != NULL, "%s", error.message);
	unlink(path);
	free(data);
}
END_TEST

/* An allocator whose new blocks hold 0x5A bytes, not the zeros fresh
 * pages happen to hold: a field a reader forgets to set shows. */
static void* dirtyAlloc(size_t size, size_t alignment, void* context)
{
	(void)context;
	void* memory = NULL;
	if (posix_memalign(&memory, alignment < sizeof(void*) ? sizeof(void*) : alignment, size) != 0) {
		return NULL;
	}
	memset(memory, 0x5A, size);
	return memory;
}

/* Its realloc: what grows holds 0x5A bytes too. */
static void* dirtyRealloc(void* memory, size_t size, void* context)
{
	(void)context;
	size_t old = memory != NULL ? malloc_usable_size(memory) : 0;
	void* grown = realloc(memory, size);
	if (grown != NULL && size > old) {
		memset((char*)grown + old, 0x5A, size - old);
	}
	return grown;
}

START_TEST(textWarningsHaveNoByte)
{
	/* a self-intersecting pentagon (face 2), in each text format: its
	 * warning is at a line and column, byte 0 (the command prints
	 * "FILE:byte N" for any byte > 0) */
	static const char* const texts[] = {
		"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 2 2 0\nf 1 2 3\nf 1 2 4 3\nf 1 2 3 4 5\n",
		"OFF\n5 3 0\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n2 2 0\n3 0 1 2\n4 0 1 3 2\n5 0 1 2 3 4\n",
		"ply\nformat ascii 1.0\nelement vertex 5\nproperty float x\nproperty float y\nproperty float z\n"
		"element face 3\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n2 2 0\n"
		"3 0 1 2\n4 0 1 3 2\n5 0 1 2 3 4\n",
	};
	static const long lines[] = { 8, 10, 17 };
	bcAllocator allocator = { dirtyAlloc, dirtyRealloc, plainFree, NULL };
	bcSetAllocator(&allocator);
	for (int k = 0; k < 3; ++k) {
		bcError error = { 0 };
		bcObjOptions options = bcDefaultObjOptions();
		options.threadCount = 1;
		bcMesh* mesh = bcMesh_Parse(texts[k], strlen(texts[k]), bc_meshAuto, &options, &error);
		ck_assert_msg(mesh != NULL, "%d: %s", k, error.message);
		ck_assert_int_eq(bcMesh_GetWarningCount(mesh), 1);
		bcWarning w = bcMesh_GetWarning(mesh, 0);
		ck_assert_int_eq(w.code, bc_warningSelfIntersecting);
		ck_assert_int_eq(w.record, 2);
		ck_assert_int_eq(w.line, lines[k]);
		ck_assert_int_eq(w.column, 1);
		ck_assert_msg(w.byte == 0, "format %d: byte %lld", k, w.byte);
		bcMesh_Destroy(mesh);
	}
	bcSetAllocator(NULL);
}
END_TEST

START_TEST(byteLimit)
{
	char text[256];
	size_t used = 0;
	for (int i = 0; i < 12; ++i) {
		used += (size_t)snprintf(text + used, sizeof text - used, "v %d 0 0\n", i);
	}
	used += (size_t)snprintf(text + used, sizeof text - used, "f 1 2 3\n");
	bcError error = { 0 };
	ck_assert_ptr_null(smallParse(text, used, bc_meshAuto, NULL, &error));
	ck_assert_int_eq(error.code, bc_errorTooLarge);
	ck_assert_str_eq(error.message, "the mesh has 106 bytes, more than the 100 a mesh may have");
	FILE* stream = fmemopen(text, used, "rb");
	ck_assert_ptr_null(smallRead(stream, bc_meshAuto, NULL, &error));
	fclose(stream);
	ck_assert_str_eq(error.message, "more than 100 bytes, the most a mesh may have");
	const char* path = writeFile(".obj", text, used);
	ck_assert_ptr_null(smallLoad(path, bc_meshAuto, NULL, &error));
	ck_assert_str_eq(error.message, "the file has 106 bytes, more than the 100 a mesh may have");
	unlink(path);
	/* the library's own limit lets it through */
	bcMesh* mesh = bcMesh_Parse(text, used, bc_meshAuto, NULL, &error);
	ck_assert_ptr_nonnull(mesh);
	bcMesh_Destroy(mesh);
}
END_TEST

static Suite* meshLoadSuite(void)
{
	Suite* suite = suite_create("mesh_load");
	TCase* load = tcase_create("load");
	tcase_add_test(load, formatByExtensionAndMagic);
	tcase_add_test(load, streamsAsMemory);
	tcase_add_test(load, binaryTextRefused);
	tcase_add_test(load, fileChangedWhileRead);
	tcase_add_test(load, binaryStlChangedWhileRead);
	tcase_add_test(load, textWarningsHaveNoByte);
	tcase_add_test(load, byteLimit);
	suite_add_tcase(suite, load);
	return suite;
}

int main(void)
{
	return bcRunSuite(meshLoadSuite());
}
