/*
 * softdoca integration tests: the peer program.
 *
 *   peer <scenario> server --port-file FILE [--iface IF]
 *   peer <scenario> client --host IP --port N [--iface IF]
 *   peer <scenario> stranger --host IP --port N [--iface IF]
 *
 * Exits 0 when every check of the scenario passed on this side.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_log.h>

#include "peer.h"

static const struct scenario *find(const char *name)
{
	for (const struct scenario *s = scenarios; s->name; s++)
		if (strcmp(s->name, name) == 0)
			return s;
	for (const struct scenario *s = arrival_scenarios; s->name; s++)
		if (strcmp(s->name, name) == 0)
			return s;
	for (const struct scenario *s = resume_scenarios; s->name; s++)
		if (strcmp(s->name, name) == 0)
			return s;
	for (const struct scenario *s = stranger_scenarios; s->name; s++)
		if (strcmp(s->name, name) == 0)
			return s;
	for (const struct scenario *s = fault_scenarios; s->name; s++)
		if (strcmp(s->name, name) == 0)
			return s;
	for (const struct scenario *s = failure_scenarios; s->name; s++)
		if (strcmp(s->name, name) == 0) {
			failure_select(name);
			return s;
		}
	return NULL;
}

int main(int argc, char **argv)
{
	const char *iface = "lo", *port_file = NULL, *host = "127.0.0.1";
	const struct scenario *scenario;
	struct peer p = { 0 };
	int port = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 3 || !(scenario = find(argv[1]))) {
		fprintf(stderr, "usage: %s <scenario> server|client [options]\n", argv[0]);
		return 2;
	}
	p.scenario = argv[1];
	p.server = strcmp(argv[2], "server") == 0;
	p.stranger = strcmp(argv[2], "stranger") == 0;
	for (int i = 3; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--iface") == 0)
			iface = argv[i + 1];
		else if (strcmp(argv[i], "--port-file") == 0)
			port_file = argv[i + 1];
		else if (strcmp(argv[i], "--host") == 0)
			host = argv[i + 1];
		else if (strcmp(argv[i], "--port") == 0)
			port = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--rounds") == 0)
			p.rounds = atoi(argv[i + 1]);
	}
	doca_log_backend_create_standard();
	peer_open(&p, iface);
	if (p.server) {
		EXPECT(port_file, "a server needs --port-file");
		oob_listen(&p, port_file);
		scenario->server(&p);
	} else {
		EXPECT(port > 0, "a client needs --port");
		oob_connect(&p, host, port);
		scenario->client(&p);
	}
	peer_close(&p);
	printf("%s %s: OK\n", argv[1], argv[2]);
	return 0;
}
