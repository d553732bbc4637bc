/*
 * softdoca tests: a program using libflexio as DOCA DPA programs do, built
 * against the installed tree through libflexio.pc (install_pkgconfig.sh):
 * the version check, then the EUs its application key names in a DPA
 * resources file, passed as the file's exact bytes. Prints "EUs: ..." .
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libflexio/flexio_ver.h>
#define FLEXIO_VER_USED FLEXIO_VER(25, 4, 0)
#include <libflexio/flexio.h>

int main(void)
{
	static const char file[] = "other:\n  eus: [1]\nsample_app:\n  eus: [3, 5-7]\n";
	struct flexio_resource *res;
	char *bytes = malloc(sizeof(file) - 1);
	uint32_t *eus;

	if (!bytes || flexio_version_set(FLEXIO_VER_USED) != FLEXIO_STATUS_SUCCESS)
		return 1;
	memcpy(bytes, file, sizeof(file) - 1);
	if (flexio_resources_create("sample_app", bytes, sizeof(file) - 1, &res) !=
	    FLEXIO_STATUS_SUCCESS)
		return 2;
	free(bytes);
	if (flexio_resources_get_eugs_num(res) != 0 || flexio_resources_get_eugs(res) != NULL)
		return 3;
	eus = flexio_resources_get_eus(res);
	printf("EUs:");
	for (uint32_t i = 0; i < flexio_resources_get_eus_num(res); i++)
		printf(" %u", eus[i]);
	printf("\n");
	flexio_resources_destroy(res);
	/* FlexIO's own model is refused. */
	return flexio_process_create(NULL, NULL, NULL, NULL) == FLEXIO_STATUS_FAILED &&
	                       flexio_process_destroy(NULL) == FLEXIO_STATUS_SUCCESS
	               ? 0
	               : 4;
}
