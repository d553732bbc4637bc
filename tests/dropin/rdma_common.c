/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * What the drop-in programs share (see rdma_common.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <doca_argp.h>
#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>

#include "common.h"
#include "files.h"
#include "rdma_common.h"

DOCA_LOG_REGISTER(DROPIN::RDMA_COMMON);

#define PEER_WAIT_SECONDS 60         /* how long a program waits for its peer */
#define PE_IDLE_SLEEP_NS (10 * 1000) /* a nap when the PE had nothing to do */
#define DEFAULT_CM_PORT 13579
#define CM_RETRY_MS 10          /* a client's next try while nobody listens yet */
#define NEGOTIATION_TASKS 1     /* the resource descriptor's send or receive */
#define MAX_DESCRIPTOR_LEN 4096 /* the receive a requester posts for it */

/* --- command line ---------------------------------------------------------- */

void set_default_params(struct rdma_params *params)
{
	memset(params, 0, sizeof(*params));
	/* -d has no default: doca_argp insists on it. */
	strcpy(params->local_desc_path, "/tmp/dropin_local_connection.desc");
	strcpy(params->remote_desc_path, "/tmp/dropin_remote_connection.desc");
	strcpy(params->remote_mmap_desc_path, "/tmp/dropin_remote_mmap.desc");
	strcpy(params->text, DEFAULT_TEXT);
	params->cm_port = DEFAULT_CM_PORT;
	params->cm_addr_type = DOCA_RDMA_ADDR_TYPE_IPv4;
	params->num_connections = 1;
}

static doca_error_t device_callback(void *param, void *config)
{
	struct rdma_params *params = config;

	return copy_param(params->device_name, sizeof(params->device_name), param,
	                  "The IB device name");
}

static doca_error_t local_desc_path_callback(void *param, void *config)
{
	struct rdma_params *params = config;

	return copy_param(params->local_desc_path, sizeof(params->local_desc_path), param,
	                  "The local descriptor path");
}

static doca_error_t remote_desc_path_callback(void *param, void *config)
{
	struct rdma_params *params = config;

	return copy_param(params->remote_desc_path, sizeof(params->remote_desc_path), param,
	                  "The remote descriptor path");
}

static doca_error_t remote_mmap_desc_path_callback(void *param, void *config)
{
	struct rdma_params *params = config;

	return copy_param(params->remote_mmap_desc_path, sizeof(params->remote_mmap_desc_path),
	                  param, "The remote resource descriptor path");
}

static doca_error_t text_callback(void *param, void *config)
{
	struct rdma_params *params = config;

	return copy_param(params->text, sizeof(params->text), param, "The string");
}

/* A non-negative INT parameter into a uint32_t. */
static doca_error_t copy_count(uint32_t *field, const void *param, const char *what)
{
	int value = *(const int *)param;

	if (value < 0) {
		DOCA_LOG_ERR("%s must not be negative", what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*field = (uint32_t)value;
	return DOCA_SUCCESS;
}

static doca_error_t gid_index_callback(void *param, void *config)
{
	struct rdma_params *params = config;

	params->gid_index_set = true;
	return copy_count(&params->gid_index, param, "The GID index");
}

static doca_error_t use_rdma_cm_callback(void *param, void *config)
{
	struct rdma_params *params = config;

	params->use_rdma_cm = *(bool *)param;
	return DOCA_SUCCESS;
}

static doca_error_t cm_port_callback(void *param, void *config)
{
	struct rdma_params *params = config;
	int port = *(const int *)param;

	if (port < 1 || port > 65535) {
		DOCA_LOG_ERR("The port must be from 1 to 65535");
		return DOCA_ERROR_INVALID_VALUE;
	}
	params->cm_port = (uint16_t)port;
	return DOCA_SUCCESS;
}

static doca_error_t num_connections_callback(void *param, void *config)
{
	struct rdma_params *params = config;
	int count = *(const int *)param;

	if (count < 1 || count > MAX_CONNECTIONS) {
		DOCA_LOG_ERR("The number of connections must be from 1 to %d", MAX_CONNECTIONS);
		return DOCA_ERROR_INVALID_VALUE;
	}
	params->num_connections = (uint32_t)count;
	return DOCA_SUCCESS;
}

static doca_error_t cm_addr_callback(void *param, void *config)
{
	struct rdma_params *params = config;

	return copy_param(params->cm_addr, sizeof(params->cm_addr), param, "The server address");
}

static doca_error_t cm_addr_type_callback(void *param, void *config)
{
	static const struct {
		const char *name;
		enum doca_rdma_addr_type type;
	} types[] = {
		{ "ipv4", DOCA_RDMA_ADDR_TYPE_IPv4 }, { "ip4", DOCA_RDMA_ADDR_TYPE_IPv4 },
		{ "ipv6", DOCA_RDMA_ADDR_TYPE_IPv6 }, { "ip6", DOCA_RDMA_ADDR_TYPE_IPv6 },
		{ "gid", DOCA_RDMA_ADDR_TYPE_GID },
	};
	struct rdma_params *params = config;

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		if (strcasecmp(param, types[i].name) == 0) {
			params->cm_addr_type = types[i].type;
			return DOCA_SUCCESS;
		}
	}
	DOCA_LOG_ERR("Unknown server address type \"%s\" (IPv4, IPv6 or GID)", (char *)param);
	return DOCA_ERROR_INVALID_VALUE;
}

static doca_error_t busy_after_submit_callback(void *param, void *config)
{
	struct rdma_params *params = config;

	return copy_count(&params->busy_after_submit_ms, param, "The busy time");
}

enum param_flags {
	PARAM_OPTIONAL = 0,
	PARAM_MANDATORY = 1 << 0,
	PARAM_HIDDEN = 1 << 1,
};

/* Describes one parameter to doca_argp; `short_name` or `arguments` may be NULL. */
static doca_error_t register_param(const char *short_name, const char *long_name,
                                   const char *arguments, const char *description,
                                   enum doca_argp_type type, doca_argp_param_cb_t callback,
                                   enum param_flags flags)
{
	struct doca_argp_param *param;
	doca_error_t result;

	result = doca_argp_param_create(&param);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Cannot create parameter --%s: %s", long_name,
		             doca_error_get_descr(result));
		return result;
	}
	if (short_name != NULL)
		doca_argp_param_set_short_name(param, short_name);
	doca_argp_param_set_long_name(param, long_name);
	if (arguments != NULL)
		doca_argp_param_set_arguments(param, arguments);
	doca_argp_param_set_description(param, description);
	doca_argp_param_set_callback(param, callback);
	doca_argp_param_set_type(param, type);
	if (flags & PARAM_MANDATORY)
		doca_argp_param_set_mandatory(param);
	if (flags & PARAM_HIDDEN)
		doca_argp_param_set_hidden(param);
	result = doca_argp_register_param(param);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Cannot register parameter --%s: %s", long_name,
		             doca_error_get_descr(result));
	return result;
}

doca_error_t register_connection_params(void)
{
	static const struct {
		const char *short_name, *long_name, *arguments, *description;
		enum doca_argp_type type;
		doca_argp_param_cb_t callback;
		enum param_flags flags;
	} table[] = {
		{ "d", "device", "<IB device name>", "IB device name of the DOCA device to use",
		  DOCA_ARGP_TYPE_STRING, device_callback, PARAM_MANDATORY },
		{ "ld", "local-descriptor-path", "<path>",
		  "File this program writes its connection descriptor to (not with -cm)",
		  DOCA_ARGP_TYPE_STRING, local_desc_path_callback, PARAM_OPTIONAL },
		{ "re", "remote-descriptor-path", "<path>",
		  "File holding the peer's connection descriptor, waited for (not with -cm)",
		  DOCA_ARGP_TYPE_STRING, remote_desc_path_callback, PARAM_OPTIONAL },
		{ "m", "remote-resource-descriptor-path", "<path>",
		  "File holding the responder's memory or sync event descriptor: the responder "
		  "writes it, the requester waits for it (not with -cm)",
		  DOCA_ARGP_TYPE_STRING, remote_mmap_desc_path_callback, PARAM_OPTIONAL },
		{ "g", "gid-index", "<GID index>", "GID index the RDMA context uses (optional)",
		  DOCA_ARGP_TYPE_INT, gid_index_callback, PARAM_OPTIONAL },
		{ "cm", "use-rdma-cm", NULL, "Connect through RDMA-CM instead of descriptor files",
		  DOCA_ARGP_TYPE_BOOLEAN, use_rdma_cm_callback, PARAM_OPTIONAL },
		{ "lp", "listen-port", "<port>",
		  "RDMA-CM port: the server listens on it, the client connects to it "
		  "(default 13579)",
		  DOCA_ARGP_TYPE_INT, cm_port_callback, PARAM_OPTIONAL },
		{ "sa", "server-addr", "<address>",
		  "RDMA-CM server address: with it this side is the client, without it the server",
		  DOCA_ARGP_TYPE_STRING, cm_addr_callback, PARAM_OPTIONAL },
		{ "sat", "server-addr-type", "<type>",
		  "RDMA-CM server address type: IPv4, IPv6 or GID", DOCA_ARGP_TYPE_STRING,
		  cm_addr_type_callback, PARAM_OPTIONAL },
	};
	doca_error_t result = DOCA_SUCCESS;

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]) && result == DOCA_SUCCESS; i++)
		result = register_param(table[i].short_name, table[i].long_name, table[i].arguments,
		                        table[i].description, table[i].type, table[i].callback,
		                        table[i].flags);
	return result;
}

static doca_error_t register_text_param(const char *short_name, const char *long_name,
                                        const char *verb)
{
	char description[128];

	snprintf(description, sizeof(description), "String to %s (default \"%s\")", verb,
	         DEFAULT_TEXT);
	return register_param(short_name, long_name, "<string>", description, DOCA_ARGP_TYPE_STRING,
	                      text_callback, PARAM_OPTIONAL);
}

doca_error_t register_write_text_param(void)
{
	return register_text_param("w", "write-string", "write");
}

doca_error_t register_read_text_param(void)
{
	return register_text_param("r", "read-string", "offer for reading");
}

doca_error_t register_send_text_param(void)
{
	return register_text_param("s", "send-string", "send");
}

doca_error_t register_num_connections_param(void)
{
	return register_param("nc", "num-connections", "<number>",
	                      "Number of connections: RDMA-CM, the client connects this many "
	                      "times and the server accepts this many; out of band, one "
	                      "descriptor file pair \"<path>-<index>\" each (1 to 16, default 1)",
	                      DOCA_ARGP_TYPE_INT, num_connections_callback, PARAM_OPTIONAL);
}

doca_error_t register_busy_after_submit_param(void)
{
	return register_param(NULL, "busy-after-submit-ms", "<ms>",
	                      "Stay busy this long after the submit, without progress (tests)",
	                      DOCA_ARGP_TYPE_INT, busy_after_submit_callback, PARAM_HIDDEN);
}

doca_error_t create_log_backends(void)
{
	struct doca_log_backend *sdk_log;
	doca_error_t result;

	result = doca_log_backend_create_standard();
	if (result == DOCA_SUCCESS)
		result = doca_log_backend_create_with_file_sdk(stderr, &sdk_log);
	if (result == DOCA_SUCCESS)
		result = doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_WARNING);
	return result;
}

/* --- resources ------------------------------------------------------------- */

/* Logs a failed step; returns its result so steps chain. */
static doca_error_t step(doca_error_t result, const char *what)
{
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to %s: %s", what, doca_error_get_descr(result));
	return result;
}

/* A started mmap of the device over `len` bytes at `addr`; NULL in *mmap on
 * failure. */
static doca_error_t create_local_mmap(struct rdma_objects *objs, void *addr, size_t len,
                                      uint32_t permissions, struct doca_mmap **mmap)
{
	doca_error_t result;

	result = step(doca_mmap_create(mmap), "create an mmap");
	if (result != DOCA_SUCCESS)
		return result;
	result = step(doca_mmap_set_permissions(*mmap, permissions), "set the mmap's permissions");
	if (result == DOCA_SUCCESS)
		result = step(doca_mmap_set_memrange(*mmap, addr, len),
		              "set the mmap's memory range");
	if (result == DOCA_SUCCESS)
		result = step(doca_mmap_add_dev(*mmap, objs->dev), "add the device to the mmap");
	if (result == DOCA_SUCCESS)
		result = step(doca_mmap_start(*mmap), "start the mmap");
	if (result != DOCA_SUCCESS) {
		(void)doca_mmap_destroy(*mmap);
		*mmap = NULL;
	}
	return result;
}

doca_error_t allocate_rdma_resources(struct rdma_params *params, uint32_t mmap_permissions,
                                     uint32_t rdma_permissions,
                                     doca_error_t (*check)(const struct doca_devinfo *),
                                     struct rdma_objects *objs)
{
	doca_error_t result;

	memset(objs, 0, sizeof(*objs));
	objs->params = params;
	objs->first_error = DOCA_SUCCESS;
	objs->expected_connections = 1;
	/* As in DOCA's samples: a server address makes this side the client. */
	objs->is_client = params->use_rdma_cm && params->cm_addr[0] != '\0';

	result = open_device_by_ibdev_name(params->device_name, check, &objs->dev);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("No device %s that can run this program", params->device_name);
		return result;
	}

	/* Ordinary heap memory, as DOCA's samples register. */
	objs->memrange = calloc(MEMORY_LEN, 1);
	if (objs->memrange == NULL)
		result = step(DOCA_ERROR_NO_MEMORY, "allocate the memory range");
	if (result == DOCA_SUCCESS)
		result = create_local_mmap(objs, objs->memrange, MEMORY_LEN, mmap_permissions,
		                           &objs->mmap);
	if (result == DOCA_SUCCESS)
		result = step(doca_pe_create(&objs->pe), "create the progress engine");
	if (result == DOCA_SUCCESS)
		result = step(doca_rdma_create(objs->dev, &objs->rdma), "create the RDMA context");
	if (result == DOCA_SUCCESS) {
		objs->ctx = doca_rdma_as_ctx(objs->rdma);
		if (objs->ctx == NULL)
			result = step(DOCA_ERROR_UNEXPECTED, "get the RDMA context's doca_ctx");
	}
	if (result == DOCA_SUCCESS)
		result = step(doca_rdma_set_permissions(objs->rdma, rdma_permissions),
		              "set the RDMA context's permissions");
	if (result == DOCA_SUCCESS && params->gid_index_set)
		result = step(doca_rdma_set_gid_index(objs->rdma, params->gid_index),
		              "set the GID index");
	if (result == DOCA_SUCCESS)
		result = step(doca_pe_connect_ctx(objs->pe, objs->ctx),
		              "connect the RDMA context to the progress engine");
	if (result != DOCA_SUCCESS)
		(void)destroy_rdma_resources(objs);
	return result;
}

/* DOCA's order: the remote mmap is stopped, then destroyed; the RDMA-CM
 * address and the descriptor's mmap; then the RDMA context, the PE; the
 * local mmap stopped, its memory freed, the mmap destroyed; the peer's
 * descriptors freed; the device closed. An inventory the program did not
 * destroy (a responder's, for its descriptor's send) goes first. Safe on a
 * partly allocated objs. */
doca_error_t destroy_rdma_resources(struct rdma_objects *objs)
{
	doca_error_t result;

	result = destroy_buf_inventory(objs);
	if (objs->remote_mmap != NULL) {
		DOCA_ERROR_PROPAGATE(
		        result, step(doca_mmap_stop(objs->remote_mmap), "stop the remote mmap"));
		DOCA_ERROR_PROPAGATE(result, step(doca_mmap_destroy(objs->remote_mmap),
		                                  "destroy the remote mmap"));
		objs->remote_mmap = NULL;
	}
	if (objs->cm_addr != NULL) {
		DOCA_ERROR_PROPAGATE(result, step(doca_rdma_addr_destroy(objs->cm_addr),
		                                  "destroy the RDMA-CM server address"));
		objs->cm_addr = NULL;
	}
	if (objs->desc_mmap != NULL) {
		DOCA_ERROR_PROPAGATE(result, step(doca_mmap_stop(objs->desc_mmap),
		                                  "stop the descriptor's mmap"));
		DOCA_ERROR_PROPAGATE(result, step(doca_mmap_destroy(objs->desc_mmap),
		                                  "destroy the descriptor's mmap"));
		objs->desc_mmap = NULL;
	}
	free(objs->sent_desc);
	objs->sent_desc = NULL;
	if (objs->rdma != NULL) {
		DOCA_ERROR_PROPAGATE(
		        result, step(doca_rdma_destroy(objs->rdma), "destroy the RDMA context"));
		objs->rdma = NULL;
		objs->ctx = NULL;
	}
	if (objs->pe != NULL) {
		DOCA_ERROR_PROPAGATE(
		        result, step(doca_pe_destroy(objs->pe), "destroy the progress engine"));
		objs->pe = NULL;
	}
	if (objs->mmap != NULL)
		DOCA_ERROR_PROPAGATE(result, step(doca_mmap_stop(objs->mmap), "stop the mmap"));
	free(objs->memrange);
	objs->memrange = NULL;
	if (objs->mmap != NULL) {
		DOCA_ERROR_PROPAGATE(result,
		                     step(doca_mmap_destroy(objs->mmap), "destroy the mmap"));
		objs->mmap = NULL;
	}
	free(objs->peer_conn_desc);
	objs->peer_conn_desc = NULL;
	free(objs->peer_mmap_desc);
	objs->peer_mmap_desc = NULL;
	if (objs->dev != NULL) {
		DOCA_ERROR_PROPAGATE(result, step(doca_dev_close(objs->dev), "close the device"));
		objs->dev = NULL;
	}
	return result;
}

doca_error_t create_buf_inventory(struct rdma_objects *objs)
{
	doca_error_t result;

	result = step(
	        doca_buf_inventory_create(NUM_BUFS * objs->expected_connections, &objs->inventory),
	        "create the buffer inventory");
	if (result == DOCA_SUCCESS)
		result = step(doca_buf_inventory_start(objs->inventory),
		              "start the buffer inventory");
	return result;
}

doca_error_t release_task_bufs(struct rdma_objects *objs)
{
	doca_error_t result = DOCA_SUCCESS;

	if (objs->src_buf != NULL)
		DOCA_ERROR_PROPAGATE(result, step(doca_buf_dec_refcount(objs->src_buf, NULL),
		                                  "release the source buffer"));
	if (objs->dst_buf != NULL)
		DOCA_ERROR_PROPAGATE(result, step(doca_buf_dec_refcount(objs->dst_buf, NULL),
		                                  "release the destination buffer"));
	objs->src_buf = NULL;
	objs->dst_buf = NULL;
	return result;
}

doca_error_t destroy_buf_inventory(struct rdma_objects *objs)
{
	doca_error_t result;

	if (objs->inventory == NULL)
		return DOCA_SUCCESS;
	result = release_task_bufs(objs);
	DOCA_ERROR_PROPAGATE(result, step(doca_buf_inventory_stop(objs->inventory),
	                                  "stop the buffer inventory"));
	DOCA_ERROR_PROPAGATE(result, step(doca_buf_inventory_destroy(objs->inventory),
	                                  "destroy the buffer inventory"));
	objs->inventory = NULL;
	return result;
}

/* --- descriptor files ------------------------------------------------------- */

/* "<path>" for a program of one connection, "<path>-<index>" for a
 * multi-connection program (DOCA's naming). */
static void indexed_path(const struct rdma_objects *objs, const char *path, uint32_t index,
                         char *out, size_t size)
{
	if (objs->multi_conn)
		snprintf(out, size, "%s-%04u", path, index);
	else
		snprintf(out, size, "%s", path);
}

/* --- connections ------------------------------------------------------------ */

static long long now_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* Records an error a callback met and stops the context (its tasks in
 * flight are flushed; the PE loop ends once it is idle). */
static void fail_and_stop(struct rdma_objects *objs, doca_error_t result)
{
	DOCA_ERROR_PROPAGATE(objs->first_error, result);
	(void)doca_ctx_stop(objs->ctx);
}

/* A connection that came up: the program's list, its step for it. */
static doca_error_t add_connection(struct rdma_objects *objs,
                                   struct doca_rdma_connection *connection)
{
	uint32_t index = objs->num_connections;

	if (index >= objs->expected_connections) {
		DOCA_LOG_ERR("More connections than the %u expected", objs->expected_connections);
		return DOCA_ERROR_FULL;
	}
	objs->connections[index] = connection;
	objs->connection_down[index] = false;
	objs->num_connections++;
	if (index == 0)
		objs->connection = connection;
	if (objs->connection_ready != NULL)
		return objs->connection_ready(objs, connection, index);
	return DOCA_SUCCESS;
}

/* Marks a connection of the list down: it is not disconnected again. */
static void mark_connection_down(struct rdma_objects *objs,
                                 const struct doca_rdma_connection *connection)
{
	for (uint32_t i = 0; i < objs->num_connections; i++)
		if (objs->connections[i] == connection)
			objs->connection_down[i] = true;
}

/* The responder's descriptor for the requester, in mmap_desc: its mmap's
 * export, or what the program exports instead. */
static doca_error_t export_responder_descriptor(struct rdma_objects *objs)
{
	if (objs->export_resource != NULL)
		return objs->export_resource(objs, &objs->mmap_desc, &objs->mmap_desc_size);
	return step(doca_mmap_export_rdma(objs->mmap, objs->dev, &objs->mmap_desc,
	                                  &objs->mmap_desc_size),
	            "export the mmap");
}

/* Out of band: exports this side (and the responder's memory), hands the
 * descriptors over through files, takes the peer's and connects; once per
 * connection, in order. */
static doca_error_t export_and_connect(struct rdma_objects *objs)
{
	const struct rdma_params *params = objs->params;
	struct doca_rdma_connection *connection;
	char local[MAX_PARAM_LEN + 8], remote[MAX_PARAM_LEN + 8];
	doca_error_t result;

	/* The resource (memory or event) descriptor first: when the requester sees the connection
	 * descriptor, that descriptor is there too. */
	if (objs->exchange_mmap && !objs->is_requester) {
		result = export_responder_descriptor(objs);
		if (result == DOCA_SUCCESS)
			result = write_descriptor_file(params->remote_mmap_desc_path,
			                               objs->mmap_desc, objs->mmap_desc_size);
		if (result != DOCA_SUCCESS)
			return result;
	}
	for (uint32_t i = 0; i < objs->expected_connections; i++) {
		indexed_path(objs, params->local_desc_path, i, local, sizeof(local));
		indexed_path(objs, params->remote_desc_path, i, remote, sizeof(remote));
		result = step(doca_rdma_export(objs->rdma, &objs->conn_desc, &objs->conn_desc_size,
		                               &connection),
		              "export the RDMA connection");
		if (result == DOCA_SUCCESS)
			result =
			        write_descriptor_file(local, objs->conn_desc, objs->conn_desc_size);
		if (result != DOCA_SUCCESS)
			return result;
		DOCA_LOG_INFO("Connection descriptor in %s; waiting for the peer's in %s", local,
		              remote);
		free(objs->peer_conn_desc);
		objs->peer_conn_desc = NULL;
		result = read_peer_file(remote, &objs->peer_conn_desc, &objs->peer_conn_desc_size);
		if (result == DOCA_SUCCESS && i == 0 && objs->exchange_mmap && objs->is_requester)
			result = read_peer_file(params->remote_mmap_desc_path,
			                        &objs->peer_mmap_desc, &objs->peer_mmap_desc_size);
		if (result == DOCA_SUCCESS)
			result = step(doca_rdma_connect(objs->rdma, objs->peer_conn_desc,
			                                objs->peer_conn_desc_size, connection),
			              "connect to the peer");
		/* Its user data: its index, as the connection callbacks give it. */
		if (result == DOCA_SUCCESS)
			result = step(doca_rdma_connection_set_user_data(
			                      connection, (union doca_data){ .u64 = i }),
			              "set the connection's user data");
		if (result == DOCA_SUCCESS)
			result = add_connection(objs, connection);
		if (result != DOCA_SUCCESS)
			return result;
	}
	return DOCA_SUCCESS;
}

/* RDMA-CM client: one more connection to the server, whose user data is
 * its index. */
static doca_error_t connect_to_server(struct rdma_objects *objs)
{
	const struct rdma_params *params = objs->params;
	union doca_data connection_user_data = { .u64 = objs->num_connections };

	if (objs->cm_attempts++ == 0 || objs->num_connections > 0)
		DOCA_LOG_INFO("Connecting to the server at %s port %u (connection %u of %u)",
		              params->cm_addr, params->cm_port, objs->num_connections + 1,
		              objs->expected_connections);
	return step(doca_rdma_connect_to_addr(objs->rdma, objs->cm_addr, connection_user_data),
	            "connect to the RDMA-CM server");
}

/* RDMA-CM, once RUNNING: the server listens, the client connects. */
static doca_error_t rdma_cm_connect(struct rdma_objects *objs)
{
	const struct rdma_params *params = objs->params;
	doca_error_t result;

	objs->cm_give_up_at_ms = now_ms() + PEER_WAIT_SECONDS * 1000LL;
	if (!objs->is_client) {
		DOCA_LOG_INFO("RDMA-CM server: listening on port %u for %u connection(s)",
		              params->cm_port, objs->expected_connections);
		return step(doca_rdma_start_listen_to_port(objs->rdma, params->cm_port),
		            "listen on the RDMA-CM port");
	}
	DOCA_LOG_INFO("RDMA-CM client of %s port %u", params->cm_addr, params->cm_port);
	result = step(doca_rdma_addr_create(params->cm_addr_type, params->cm_addr, params->cm_port,
	                                    &objs->cm_addr),
	              "create the RDMA-CM server address");
	if (result == DOCA_SUCCESS)
		result = connect_to_server(objs);
	return result;
}

/* Disconnects every connection not known to be down: the context stops. */
static void rdma_cm_disconnect_all(struct rdma_objects *objs)
{
	for (uint32_t i = 0; i < objs->num_connections; i++) {
		if (objs->connection_down[i])
			continue;
		objs->connection_down[i] = true;
		(void)step(doca_rdma_connection_disconnect(objs->connections[i]),
		           "disconnect an RDMA-CM connection");
	}
}

/* --- RDMA-CM: the resource descriptor over the connection -------------------- */

/* Responder: its export (doca_mmap_export_rdma()'s blob, or the sync
 * event's), sent from a copy under an mmap of its own: the blob belongs to
 * its exporter, which may go before the program's resources do. */
static doca_error_t send_mmap_descriptor(struct rdma_objects *objs)
{
	struct doca_rdma_task_send *task;
	struct doca_buf *buf;
	union doca_data task_user_data = { .ptr = NULL };
	doca_error_t result;

	result = export_responder_descriptor(objs);
	if (result == DOCA_SUCCESS &&
	    (objs->mmap_desc_size == 0 || objs->mmap_desc_size > MAX_DESCRIPTOR_LEN)) {
		DOCA_LOG_ERR("A descriptor of %zu bytes: 1 to %d can be sent", objs->mmap_desc_size,
		             MAX_DESCRIPTOR_LEN);
		result = DOCA_ERROR_INVALID_VALUE;
	}
	if (result == DOCA_SUCCESS) {
		objs->sent_desc = malloc(objs->mmap_desc_size);
		if (objs->sent_desc == NULL)
			result = step(DOCA_ERROR_NO_MEMORY, "copy the descriptor");
	}
	if (result == DOCA_SUCCESS && objs->inventory == NULL)
		result = create_buf_inventory(objs);
	if (result != DOCA_SUCCESS)
		return result;
	memcpy(objs->sent_desc, objs->mmap_desc, objs->mmap_desc_size);
	result = create_local_mmap(objs, objs->sent_desc, objs->mmap_desc_size,
	                           DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, &objs->desc_mmap);
	if (result != DOCA_SUCCESS)
		return result;
	result = step(doca_buf_inventory_buf_get_by_data(objs->inventory, objs->desc_mmap,
	                                                 objs->sent_desc, objs->mmap_desc_size,
	                                                 &buf),
	              "get the descriptor's buffer");
	if (result != DOCA_SUCCESS)
		return result;
	result = step(doca_rdma_task_send_allocate_init(objs->rdma, objs->connection, buf,
	                                                task_user_data, &task),
	              "allocate the descriptor's send task");
	if (result == DOCA_SUCCESS) {
		DOCA_LOG_INFO("Sending the resource descriptor (%zu bytes) to the requester",
		              objs->mmap_desc_size);
		result = step(doca_task_submit(doca_rdma_task_send_as_task(task)),
		              "submit the descriptor's send task");
		if (result != DOCA_SUCCESS)
			doca_task_free(doca_rdma_task_send_as_task(task));
	}
	if (result != DOCA_SUCCESS)
		(void)doca_buf_dec_refcount(buf, NULL);
	return result;
}

/* Requester: a receive for the responder's descriptor, into memory of its own. */
static doca_error_t receive_mmap_descriptor(struct rdma_objects *objs)
{
	struct doca_rdma_task_receive *task;
	struct doca_buf *buf;
	union doca_data task_user_data = { .ptr = NULL };
	doca_error_t result = DOCA_SUCCESS;

	objs->peer_mmap_desc = calloc(MAX_DESCRIPTOR_LEN, 1);
	if (objs->peer_mmap_desc == NULL)
		result = step(DOCA_ERROR_NO_MEMORY, "allocate memory for the descriptor");
	if (result == DOCA_SUCCESS)
		result = create_local_mmap(objs, objs->peer_mmap_desc, MAX_DESCRIPTOR_LEN,
		                           DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, &objs->desc_mmap);
	if (result != DOCA_SUCCESS)
		return result;
	result = step(doca_buf_inventory_buf_get_by_addr(objs->inventory, objs->desc_mmap,
	                                                 objs->peer_mmap_desc, MAX_DESCRIPTOR_LEN,
	                                                 &buf),
	              "get the descriptor's buffer");
	if (result != DOCA_SUCCESS)
		return result;
	result = step(doca_rdma_task_receive_allocate_init(objs->rdma, buf, task_user_data, &task),
	              "allocate the descriptor's receive task");
	if (result == DOCA_SUCCESS) {
		DOCA_LOG_INFO("Waiting for the responder's resource descriptor");
		result = step(doca_task_submit(doca_rdma_task_receive_as_task(task)),
		              "submit the descriptor's receive task");
		if (result != DOCA_SUCCESS)
			doca_task_free(doca_rdma_task_receive_as_task(task));
	}
	if (result != DOCA_SUCCESS)
		(void)doca_buf_dec_refcount(buf, NULL);
	return result;
}

static void descriptor_sent_callback(struct doca_rdma_task_send *task,
                                     union doca_data task_user_data, union doca_data ctx_user_data)
{
	struct rdma_objects *objs = ctx_user_data.ptr;
	struct doca_buf *buf = (struct doca_buf *)doca_rdma_task_send_get_src_buf(task);
	doca_error_t result;

	(void)task_user_data;
	doca_task_free(doca_rdma_task_send_as_task(task));
	result = step(doca_buf_dec_refcount(buf, NULL), "release the descriptor's buffer");
	DOCA_LOG_INFO("Resource descriptor sent");
	if (result == DOCA_SUCCESS)
		result = objs->connected(objs);
	if (result != DOCA_SUCCESS)
		fail_and_stop(objs, result);
}

static void descriptor_send_error_callback(struct doca_rdma_task_send *task,
                                           union doca_data task_user_data,
                                           union doca_data ctx_user_data)
{
	struct rdma_objects *objs = ctx_user_data.ptr;
	struct doca_buf *buf = (struct doca_buf *)doca_rdma_task_send_get_src_buf(task);
	doca_error_t status = doca_task_get_status(doca_rdma_task_send_as_task(task));

	(void)task_user_data;
	DOCA_LOG_ERR("Sending the resource descriptor failed: %s", doca_error_get_descr(status));
	doca_task_free(doca_rdma_task_send_as_task(task));
	(void)doca_buf_dec_refcount(buf, NULL);
	fail_and_stop(objs, status);
}

static void descriptor_received_callback(struct doca_rdma_task_receive *task,
                                         union doca_data task_user_data,
                                         union doca_data ctx_user_data)
{
	struct rdma_objects *objs = ctx_user_data.ptr;
	struct doca_buf *buf = doca_rdma_task_receive_get_dst_buf(task);
	doca_error_t result, tmp;

	(void)task_user_data;
	result = step(doca_buf_get_data_len(buf, &objs->peer_mmap_desc_size),
	              "get the descriptor's length");
	doca_task_free(doca_rdma_task_receive_as_task(task));
	tmp = step(doca_buf_dec_refcount(buf, NULL), "release the descriptor's buffer");
	DOCA_ERROR_PROPAGATE(result, tmp);
	if (result == DOCA_SUCCESS) {
		DOCA_LOG_INFO("Received the responder's resource descriptor (%zu bytes)",
		              objs->peer_mmap_desc_size);
		result = objs->connected(objs);
	}
	if (result != DOCA_SUCCESS)
		fail_and_stop(objs, result);
}

static void descriptor_receive_error_callback(struct doca_rdma_task_receive *task,
                                              union doca_data task_user_data,
                                              union doca_data ctx_user_data)
{
	struct rdma_objects *objs = ctx_user_data.ptr;
	doca_error_t status = doca_task_get_status(doca_rdma_task_receive_as_task(task));

	(void)task_user_data;
	DOCA_LOG_ERR("Receiving the resource descriptor failed: %s", doca_error_get_descr(status));
	(void)doca_buf_dec_refcount(doca_rdma_task_receive_get_dst_buf(task), NULL);
	doca_task_free(doca_rdma_task_receive_as_task(task));
	fail_and_stop(objs, status);
}

/* --- RDMA-CM: the connection callbacks -------------------------------------- */

/* Server: accepts, with no private data, and gives the connection its
 * index in the order of requests as its user data. */
static void rdma_cm_request_callback(struct doca_rdma_connection *connection,
                                     union doca_data ctx_user_data)
{
	struct rdma_objects *objs = ctx_user_data.ptr;
	union doca_data connection_user_data = { .u64 = objs->num_requests };
	doca_error_t result;

	if (objs->num_requests >= objs->expected_connections) {
		DOCA_LOG_WARN("A connection request beyond the %u expected: rejected",
		              objs->expected_connections);
		(void)step(doca_rdma_connection_reject(connection), "reject a connection request");
		return;
	}
	result = step(doca_rdma_connection_accept(connection, NULL, 0),
	              "accept the connection request");
	if (result == DOCA_SUCCESS)
		result = step(doca_rdma_connection_set_user_data(connection, connection_user_data),
		              "set the connection's user data");
	if (result != DOCA_SUCCESS) {
		fail_and_stop(objs, result);
		return;
	}
	objs->requested[objs->num_requests++] = connection;
	DOCA_LOG_INFO("Accepted a connection request (user data %llu)",
	              (unsigned long long)connection_user_data.u64);
}

/* Both sides: the connection is up. The client connects again until it has
 * all its connections; with all of them the program goes on (through the
 * descriptor's exchange when the requester needs the responder's memory). */
static void rdma_cm_established_callback(struct doca_rdma_connection *connection,
                                         union doca_data connection_user_data,
                                         union doca_data ctx_user_data)
{
	struct rdma_objects *objs = ctx_user_data.ptr;
	uint32_t id = 0;
	doca_error_t result;

	result = step(doca_rdma_connection_get_id(connection, &id), "get the connection's id");
	if (result == DOCA_SUCCESS) {
		DOCA_LOG_INFO("RDMA-CM connection established (id %u, user data %llu)", id,
		              (unsigned long long)connection_user_data.u64);
		result = add_connection(objs, connection);
	}
	if (result == DOCA_SUCCESS && objs->num_connections < objs->expected_connections) {
		if (objs->is_client)
			result = connect_to_server(objs);
	} else if (result == DOCA_SUCCESS) {
		if (!objs->exchange_mmap)
			result = objs->connected(objs);
		else if (objs->is_requester)
			result = receive_mmap_descriptor(objs);
		else
			result = send_mmap_descriptor(objs);
	}
	if (result != DOCA_SUCCESS)
		fail_and_stop(objs, result);
}

/* A connection that could not be made, or broke. A client that has no
 * connection yet tries again in a moment: its server may not listen yet. */
static void rdma_cm_failure_callback(struct doca_rdma_connection *connection,
                                     union doca_data connection_user_data,
                                     union doca_data ctx_user_data)
{
	struct rdma_objects *objs = ctx_user_data.ptr;

	(void)connection_user_data;
	mark_connection_down(objs, connection);
	if (objs->is_client && objs->num_connections == 0 && now_ms() < objs->cm_give_up_at_ms) {
		if (objs->cm_attempts == 1)
			DOCA_LOG_INFO("The server does not answer yet: connecting again every "
			              "%d ms for up to %d seconds",
			              CM_RETRY_MS, PEER_WAIT_SECONDS);
		objs->cm_retry = true;
		objs->cm_retry_at_ms = now_ms() + CM_RETRY_MS;
		return;
	}
	DOCA_LOG_ERR("An RDMA-CM connection failed");
	fail_and_stop(objs, DOCA_ERROR_CONNECTION_ABORTED);
}

/* Either side disconnected: disconnecting again, as DOCA's samples do, is
 * harmless. A responder waiting for its requester to finish goes on. */
static void rdma_cm_disconnect_callback(struct doca_rdma_connection *connection,
                                        union doca_data connection_user_data,
                                        union doca_data ctx_user_data)
{
	struct rdma_objects *objs = ctx_user_data.ptr;
	rdma_step then = objs->peer_done;
	doca_error_t result;

	mark_connection_down(objs, connection);
	result = step(doca_rdma_connection_disconnect(connection),
	              "disconnect the RDMA-CM connection again");
	DOCA_LOG_INFO("RDMA-CM connection disconnected (user data %llu)",
	              (unsigned long long)connection_user_data.u64);
	objs->peer_disconnected = true;
	objs->peer_done = NULL;
	if (result == DOCA_SUCCESS && then != NULL)
		result = then(objs);
	if (result != DOCA_SUCCESS)
		fail_and_stop(objs, result);
}

doca_error_t config_rdma_cm_callbacks_and_negotiation(struct rdma_objects *objs,
                                                      bool need_send_task, bool need_recv_task)
{
	doca_error_t result = DOCA_SUCCESS;

	if (need_send_task)
		result = step(doca_rdma_task_send_set_conf(objs->rdma, descriptor_sent_callback,
		                                           descriptor_send_error_callback,
		                                           NEGOTIATION_TASKS),
		              "configure the descriptor's send task");
	if (result == DOCA_SUCCESS && need_recv_task)
		result = step(doca_rdma_task_receive_set_conf(
		                      objs->rdma, descriptor_received_callback,
		                      descriptor_receive_error_callback, NEGOTIATION_TASKS),
		              "configure the descriptor's receive task");
	if (result == DOCA_SUCCESS)
		result = step(doca_rdma_set_connection_state_callbacks(
		                      objs->rdma, rdma_cm_request_callback,
		                      rdma_cm_established_callback, rdma_cm_failure_callback,
		                      rdma_cm_disconnect_callback),
		              "set the RDMA-CM connection callbacks");
	return result;
}

/* --- the requester's end ------------------------------------------------------ */

doca_error_t signal_peer_done(struct rdma_objects *objs)
{
	if (objs->params->use_rdma_cm) {
		DOCA_LOG_INFO("Disconnecting: the responder takes it for the end");
		mark_connection_down(objs, objs->connection);
		return step(doca_rdma_connection_disconnect(objs->connection),
		            "disconnect from the responder");
	}
	return signal_done_file(objs->params->local_desc_path);
}

doca_error_t wait_peer_done(struct rdma_objects *objs, rdma_step then)
{
	doca_error_t result;

	if (objs->params->use_rdma_cm) {
		if (objs->peer_disconnected)
			return then(objs);
		DOCA_LOG_INFO("Waiting for the requester to finish (it disconnects then)");
		objs->peer_done = then;
		return DOCA_SUCCESS;
	}
	result = wait_done_file(objs->params->remote_desc_path);
	return result == DOCA_SUCCESS ? then(objs) : result;
}

/* --- the context ------------------------------------------------------------ */

void rdma_state_changed_callback(const union doca_data user_data, struct doca_ctx *ctx,
                                 enum doca_ctx_states prev_state, enum doca_ctx_states next_state)
{
	struct rdma_objects *objs = user_data.ptr;
	doca_error_t result = DOCA_SUCCESS;

	(void)prev_state;
	switch (next_state) {
	case DOCA_CTX_STATE_STARTING:
		DOCA_LOG_INFO("RDMA context is starting");
		break;
	case DOCA_CTX_STATE_RUNNING:
		DOCA_LOG_INFO("RDMA context is running");
		/* RDMA-CM: listen or connect; the connection callbacks go on. */
		if (objs->params->use_rdma_cm) {
			result = rdma_cm_connect(objs);
			break;
		}
		/* DOCA 3.x: export and connect once running, then go straight on
		 * (the peer may not have connected yet). */
		result = export_and_connect(objs);
		if (result == DOCA_SUCCESS) {
			DOCA_LOG_INFO("Connected to the peer");
			result = objs->connected(objs);
		}
		break;
	case DOCA_CTX_STATE_STOPPING:
		/* A stop with tasks in flight: progress flushes them, then idle. */
		DOCA_LOG_INFO("RDMA context is stopping; tasks in flight will be flushed");
		if (objs->params->use_rdma_cm)
			rdma_cm_disconnect_all(objs);
		break;
	case DOCA_CTX_STATE_IDLE:
		DOCA_LOG_INFO("RDMA context is idle");
		objs->run_pe_progress = false;
		break;
	default:
		break;
	}
	if (result != DOCA_SUCCESS) {
		DOCA_ERROR_PROPAGATE(objs->first_error, result);
		(void)doca_ctx_stop(ctx);
	}
}

/* RDMA-CM: the client's next try, and the end of the wait for the peer. */
static void rdma_cm_timers(struct rdma_objects *objs)
{
	long long now = now_ms();
	doca_error_t result;

	if (objs->cm_retry && now >= objs->cm_retry_at_ms) {
		objs->cm_retry = false;
		result = connect_to_server(objs);
		if (result != DOCA_SUCCESS)
			fail_and_stop(objs, result);
	}
	if (objs->cm_give_up_at_ms != 0 && now >= objs->cm_give_up_at_ms) {
		objs->cm_give_up_at_ms = 0;
		objs->cm_retry = false;
		DOCA_LOG_ERR("The peer did not finish within %d seconds", PEER_WAIT_SECONDS);
		fail_and_stop(objs, DOCA_ERROR_TIME_OUT);
	}
}

doca_error_t run_rdma_context(struct rdma_objects *objs)
{
	const struct timespec nap = { .tv_sec = 0, .tv_nsec = PE_IDLE_SLEEP_NS };
	union doca_data ctx_user_data = { .ptr = objs };
	doca_error_t result;

	result = step(doca_ctx_set_user_data(objs->ctx, ctx_user_data),
	              "set the context's user data");
	if (result != DOCA_SUCCESS)
		return result;
	objs->run_pe_progress = true;
	/* DOCA 3.x: SUCCESS, and the states arrive through doca_pe_progress(). */
	result = step(doca_ctx_start(objs->ctx), "start the RDMA context");
	if (result != DOCA_SUCCESS)
		return result;
	while (objs->run_pe_progress) {
		if (doca_pe_progress(objs->pe) == 0)
			nanosleep(&nap, NULL);
		if (objs->params->use_rdma_cm)
			rdma_cm_timers(objs);
	}
	return objs->first_error;
}

/* --- inside callbacks -------------------------------------------------------- */

void rdma_task_done(struct rdma_objects *objs, doca_error_t result)
{
	DOCA_ERROR_PROPAGATE(objs->first_error, result);
	if (objs->tasks_in_flight > 0)
		objs->tasks_in_flight--;
	if (objs->tasks_in_flight == 0)
		(void)doca_ctx_stop(objs->ctx);
}

void busy_wait_ms(uint32_t ms)
{
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 <
	         (long)ms);
}

/* --- buffers ------------------------------------------------------------------ */

doca_error_t import_remote_mmap(struct rdma_objects *objs, void **addr, size_t *len)
{
	doca_error_t result;

	result = step(doca_mmap_create_from_export(NULL, objs->peer_mmap_desc,
	                                           objs->peer_mmap_desc_size, objs->dev,
	                                           &objs->remote_mmap),
	              "create the remote mmap from the responder's export");
	if (result == DOCA_SUCCESS)
		result = step(doca_mmap_get_memrange(objs->remote_mmap, addr, len),
		              "get the remote memory range");
	return result;
}

doca_error_t prepare_text_src_buf(struct rdma_objects *objs)
{
	size_t len = strlen(objs->params->text) + 1;
	void *data;
	doca_error_t result;

	result = step(doca_buf_inventory_buf_get_by_data(objs->inventory, objs->mmap,
	                                                 objs->memrange, len, &objs->src_buf),
	              "get the source buffer");
	if (result == DOCA_SUCCESS)
		result = step(doca_buf_get_data(objs->src_buf, &data),
		              "get the source buffer's data");
	if (result == DOCA_SUCCESS)
		memcpy(data, objs->params->text, len);
	return result;
}

doca_error_t prepare_remote_write_bufs(struct rdma_objects *objs)
{
	size_t len = strlen(objs->params->text) + 1;
	void *remote_addr;
	size_t remote_len;
	doca_error_t result;

	result = import_remote_mmap(objs, &remote_addr, &remote_len);
	if (result == DOCA_SUCCESS && remote_len < len)
		result = step(DOCA_ERROR_INVALID_VALUE, "fit the string in the responder's memory");
	if (result == DOCA_SUCCESS)
		result = prepare_text_src_buf(objs);
	if (result == DOCA_SUCCESS)
		result = step(doca_buf_inventory_buf_get_by_addr(objs->inventory, objs->remote_mmap,
		                                                 remote_addr, len, &objs->dst_buf),
		              "get the remote destination buffer");
	return result;
}

doca_error_t prepare_empty_dst_buf(struct rdma_objects *objs)
{
	return step(doca_buf_inventory_buf_get_by_addr(objs->inventory, objs->mmap, objs->memrange,
	                                               MEMORY_LEN, &objs->dst_buf),
	            "get the destination buffer");
}

/* --- receives ------------------------------------------------------------------ */

static doca_error_t submit_receive(struct rdma_objects *objs, struct doca_buf *dst_buf)
{
	struct doca_rdma_task_receive *task;
	union doca_data task_user_data = { .ptr = NULL };
	doca_error_t result;

	result = step(
	        doca_rdma_task_receive_allocate_init(objs->rdma, dst_buf, task_user_data, &task),
	        "allocate the RDMA receive task");
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Submitting an RDMA receive task");
	objs->tasks_in_flight++;
	result = step(doca_task_submit(doca_rdma_task_receive_as_task(task)),
	              "submit the RDMA receive task");
	if (result != DOCA_SUCCESS) {
		objs->tasks_in_flight--;
		doca_task_free(doca_rdma_task_receive_as_task(task));
	}
	return result;
}

doca_error_t post_receive(struct rdma_objects *objs)
{
	doca_error_t result = prepare_empty_dst_buf(objs);

	return result == DOCA_SUCCESS ? submit_receive(objs, objs->dst_buf) : result;
}

doca_error_t post_receive_without_buffer(struct rdma_objects *objs)
{
	return submit_receive(objs, NULL);
}

void rdma_receive_error_callback(struct doca_rdma_task_receive *task,
                                 union doca_data task_user_data, union doca_data ctx_user_data)
{
	struct rdma_objects *objs = ctx_user_data.ptr;
	doca_error_t status = doca_task_get_status(doca_rdma_task_receive_as_task(task));

	(void)task_user_data;
	DOCA_LOG_ERR("RDMA receive task failed: %s", doca_error_get_descr(status));
	doca_task_free(doca_rdma_task_receive_as_task(task));
	(void)release_task_bufs(objs);
	rdma_task_done(objs, status);
}
