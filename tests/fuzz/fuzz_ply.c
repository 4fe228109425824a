/* fuzz_ply.c - libFuzzer target: the PLY reader (bcMesh_Parse with bc_meshPly) on
 * arbitrary bytes; the properties are fuzz_mesh.h's. */
#include "fuzz_mesh.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	return bcFuzzMeshInput(data, size, bc_meshPly);
}
