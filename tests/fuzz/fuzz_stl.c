/* fuzz_stl.c - libFuzzer target: the STL reader (bcMesh_Parse with bc_meshStl) on
 * arbitrary bytes; the properties are fuzz_mesh.h's. */
#include "fuzz_mesh.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	return bcFuzzMeshInput(data, size, bc_meshStl);
}
