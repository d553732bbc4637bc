/*
 * softdoca soak: what both sides share - patterns, out-of-band messages,
 * samples of the process (RSS, descriptors, threads), main().
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_dev.h>

#include "soak.h"

uint8_t pat_byte(uint64_t seed, uint64_t pos)
{
	return (uint8_t)(soak_mix(seed, pos >> 3) >> ((pos & 7) * 8));
}

void pat_fill(uint8_t *b, size_t len, uint64_t seed, uint64_t base, uint8_t flip)
{
	uint64_t flip64 = flip * 0x0101010101010101ull;
	size_t i = 0;

	for (; i < len && ((base + i) & 7); i++)
		b[i] = pat_byte(seed, base + i) ^ flip;
	for (; i + 8 <= len; i += 8) {
		uint64_t w = soak_mix(seed, (base + i) >> 3) ^ flip64;

		memcpy(b + i, &w, 8);
	}
	for (; i < len; i++)
		b[i] = pat_byte(seed, base + i) ^ flip;
}

long pat_check(const uint8_t *b, size_t len, uint64_t seed, uint64_t base)
{
	size_t i = 0;

	for (; i < len && ((base + i) & 7); i++)
		if (b[i] != pat_byte(seed, base + i))
			return (long)i;
	for (; i + 8 <= len; i += 8) {
		uint64_t w = soak_mix(seed, (base + i) >> 3), got;

		memcpy(&got, b + i, 8);
		if (got != w)
			break; /* the byte loop below finds which */
	}
	for (; i < len; i++)
		if (b[i] != pat_byte(seed, base + i))
			return (long)i;
	return -1;
}

void soak_send(int fd, enum soak_msg_type type, int slot, uint32_t gen, const void *body,
               size_t len)
{
	struct soak_msg hdr = { .type = (uint8_t)type, .slot = (uint8_t)slot, .gen = gen };
	uint8_t *m = malloc(sizeof(hdr) + len);

	EXPECT(m, "out of memory");
	memcpy(m, &hdr, sizeof(hdr));
	if (len)
		memcpy(m + sizeof(hdr), body, len);
	oob_send(fd, m, sizeof(hdr) + len);
	free(m);
}

void *soak_recv(int fd, struct soak_msg *hdr, const void **body, size_t *len, int timeout_ms)
{
	size_t n;
	uint8_t *m = oob_recv(fd, &n, timeout_ms);

	EXPECT(n >= sizeof(*hdr), "a short out-of-band message (%zu bytes)", n);
	memcpy(hdr, m, sizeof(*hdr));
	*body = m + sizeof(*hdr);
	*len = n - sizeof(*hdr);
	return m;
}

uint64_t soak_now_ms(void)
{
	return now_ms();
}

/* --- the process --- */

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1; /* the directory's own descriptor */
}

static void read_status(double *rss_mb, int *threads)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];

	*rss_mb = 0;
	*threads = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long v;

		if (sscanf(line, "VmRSS: %lu kB", &v) == 1)
			*rss_mb = (double)v / 1024.0;
		else if (sscanf(line, "Threads: %lu", &v) == 1)
			*threads = (int)v;
	}
	fclose(f);
}

void soak_proc_init(struct soak_proc *p, uint64_t duration_ms, double growth_mb)
{
	uint64_t warm = duration_ms / 5;

	memset(p, 0, sizeof(*p));
	p->start_ms = now_ms();
	/* A fifth of the run (at least 5 s, at most 60 s): every size and
	 * every path has been used by then. */
	if (warm < 5000)
		warm = 5000;
	if (warm > 60000)
		warm = 60000;
	p->warm_ms = p->start_ms + warm;
	p->growth_mb = growth_mb;
	soak_proc_sample(p);
}

void soak_proc_sample(struct soak_proc *p)
{
	bool warming = now_ms() < p->warm_ms;

	read_status(&p->rss_mb, &p->threads);
	p->fds = count_fds();
	if (p->rss_mb > p->peak_mb)
		p->peak_mb = p->rss_mb;
	if (p->fds > p->max_fds)
		p->max_fds = p->fds;
	if (p->threads > p->max_threads)
		p->max_threads = p->threads;
	if (warming || p->samples == 0) {
		p->warm_peak_mb = p->peak_mb;
		p->warm_fds = p->max_fds;
		p->warm_threads = p->max_threads;
	}
	p->samples++;
}

bool soak_proc_verdict(const struct soak_proc *p, const char *who)
{
	bool ok = true;

	printf("%s: peak RSS %.1f MiB (%.1f MiB by the end of the warm-up, allowed +%.0f), "
	       "fds %d (max %d, %d after warm-up), threads %d (max %d, %d after warm-up), "
	       "%d samples\n",
	       who, p->peak_mb, p->warm_peak_mb, p->growth_mb, p->fds, p->max_fds, p->warm_fds,
	       p->threads, p->max_threads, p->warm_threads, p->samples);
	if (p->peak_mb > p->warm_peak_mb + p->growth_mb) {
		printf("FAIL %s: RSS grew %.1f MiB after the warm-up\n", who,
		       p->peak_mb - p->warm_peak_mb);
		ok = false;
	}
	/* A reconnection holds an old endpoint's socket for a moment. */
	if (p->max_fds > p->warm_fds + 8) {
		printf("FAIL %s: file descriptors grew from %d to %d\n", who, p->warm_fds,
		       p->max_fds);
		ok = false;
	}
	if (p->max_threads > p->warm_threads) {
		printf("FAIL %s: threads grew from %d to %d\n", who, p->warm_threads,
		       p->max_threads);
		ok = false;
	}
	return ok;
}

struct doca_dev *soak_open_dev(const char *iface)
{
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	uint32_t n;

	CHECK(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && !dev; i++) {
		char name[DOCA_DEVINFO_IFACE_NAME_SIZE];

		CHECK(doca_devinfo_get_iface_name(list[i], name, sizeof(name)));
		if (strcmp(name, iface) == 0)
			CHECK(doca_dev_open(list[i], &dev));
	}
	CHECK(doca_devinfo_destroy_list(list));
	EXPECT(dev, "no device for interface %s", iface);
	return dev;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 2 && strcmp(argv[1], "server") == 0)
		return soak_server(argc - 2, argv + 2);
	if (argc >= 2 && strcmp(argv[1], "client") == 0)
		return soak_client(argc - 2, argv + 2);
	fprintf(stderr,
	        "usage: %s server --port-file F [--iface I]\n"
	        "       %s client --port P [--host H] [--iface I] [--seconds S] [--seed N]\n"
	        "              [--report S] [--depth D] [--doom P] [--arena-mb M] [--nrecv N]\n"
	        "              [--rss-growth-mb M] [--deadline-ms MS] [--client-faults SPEC]\n"
	        "              [--server-faults SPEC]\n",
	        argv[0], argv[0]);
	return 2;
}
