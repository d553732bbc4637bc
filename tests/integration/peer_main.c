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
	static const struct scenario *const tables[] = {
		scenarios,       cm_scenarios,      cm_flood_scenarios, arrival_scenarios,
		sync_scenarios,  resume_scenarios,  stranger_scenarios, fault_scenarios,
		stats_scenarios, batch_scenarios,   stop_scenarios,     flush_scenarios,
		gone_scenarios,  capture_scenarios,
	};

	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
		for (const struct scenario *s = tables[t]; s->name; s++)
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
	const struct scenario *scenario;
	struct peer p = { 0 };
	struct peer_args a;

	setvbuf(stdout, NULL, _IOLBF, 0);
	peer_args_parse(argc, argv, &a);
	if (!(scenario = find(a.scenario)))
		peer_usage(argv[0]);
	p.server = a.server;
	p.rounds = a.rounds;
	p.scenario = a.scenario;
	p.stranger = a.stranger;
	doca_log_backend_create_standard();
	peer_open(&p, a.iface);
	if (p.server) {
		EXPECT(a.port_file, "a server needs --port-file");
		oob_listen(&p, a.port_file);
		scenario->server(&p);
	} else {
		EXPECT(a.port > 0, "a client needs --port");
		p.host = a.host;
		oob_connect(&p, a.host, a.port);
		scenario->client(&p);
	}
	peer_close(&p);
	printf("%s %s: OK\n", argv[1], argv[2]);
	return 0;
}
