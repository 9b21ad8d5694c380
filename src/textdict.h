/*-------------------------------------------------------------------------
 * textdict.h
 *    Long text keys, dictionary-encoded by the processes that fill the
 *    strides (see textdict.c).
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_TEXTDICT_H
#define GPUGB_TEXTDICT_H

#include "postgres.h"

#include "lib/dshash.h"
#include "port/atomics.h"
#include "utils/dsa.h"

typedef struct GpugbTextDict GpugbTextDict;

/*
 * The shared index id -> bytes (textdict.c): chunk 0 holds ids 1 ..
 * GPUGB_TEXTDICT_CHUNK0, chunk k > 0 the next GPUGB_TEXTDICT_CHUNK0 *
 * 2^(k-1) ids; 40 chunks cover more ids than any query can take.
 */
#define GPUGB_TEXTDICT_CHUNK0 4096
#define GPUGB_TEXTDICT_CHUNKS 40

/*
 * Parallel ingest: where the one dictionary of a query lives, in the
 * node's DSM (parallel.c), for workers to attach to.
 */
typedef struct GpugbSharedTextDict
{
	dshash_table_handle handle; /* InvalidDsaPointer: none (a dsa_pointer) */
	int			tranche_id;		/* of the table's partition locks */
	pg_atomic_uint64 last_id;	/* ids 1 .. last_id are taken */
	/* the index's chunks in the DSA, each installed once (InvalidDsaPointer: not yet) */
	dsa_pointer_atomic index_chunks[GPUGB_TEXTDICT_CHUNKS];
	/* every block of text copies any process allocated, a list (for a rescan's reset) */
	dsa_pointer_atomic text_blocks;
} GpugbSharedTextDict;

extern GpugbTextDict *gpugb_textdict_create(MemoryContext parent);
extern int64 gpugb_textdict_id(GpugbTextDict *dict, const char *data, int len);
extern text *gpugb_textdict_text(GpugbTextDict *dict, int64 id);
extern void gpugb_textdict_free(GpugbTextDict *dict);
/* The bytes of an id (textorder.c); NULL for a shared id not published yet. */
extern const char *gpugb_textdict_bytes(const GpugbTextDict *dict, int64 id, int *len);

/* Parallel ingest (exec.c's DSM callbacks). */
extern void gpugb_textdict_shared_init(GpugbSharedTextDict *shared);
extern void gpugb_textdict_share(GpugbTextDict *dict, dsa_area *area,
								 GpugbSharedTextDict *shared);
extern GpugbTextDict *gpugb_textdict_attach(MemoryContext parent, dsa_area *area,
											GpugbSharedTextDict *shared);
extern void gpugb_textdict_reset(GpugbTextDict *dict);

#endif							/* GPUGB_TEXTDICT_H */
