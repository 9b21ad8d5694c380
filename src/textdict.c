/*-------------------------------------------------------------------------
 * textdict.c
 *    Long text keys, dictionary-encoded by the processes that fill strides.
 *
 * A text key of at most 16 bytes travels as its own bytes in two words
 * (strides.c).  A longer one gets an id here instead: the words (0, id),
 * which no packed value has (a non-empty packed value has a non-zero first
 * byte, and the empty one is (0, 0)).  The GPU groups ids like any words;
 * equal strings get equal ids because the dictionary compares the full
 * bytes, never only a hash, so the grouping is exact.
 *
 * A one-process plan keeps the dictionary in its own memory.  Under
 * parallel ingest every process fills strides, so the ids must agree
 * across them: the leader creates one dshash table in the query's DSA,
 * keyed by the full bytes (a copy in the DSA), and an id comes from a
 * shared counter when a text is first inserted; the workers attach to it.
 * Each process still keeps its own table of the texts it has met (the
 * same structure as the one-process dictionary, holding the shared ids):
 * a repeated key then costs no partition lock, which sixteen workers
 * meeting the same hot key would otherwise fight over.  The leader decodes
 * ids through an index id -> bytes in the DSA, built from a scan of the
 * table once the workers are done.  The DSA goes with the Gather's DSM
 * segment (at the end of the query, on ERROR too), so nothing in it needs
 * freeing here, except on a rescan, which empties the table.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "storage/lwlock.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "textdict.h"

typedef struct DictBucket
{
	uint64		hash;			/* the key: a hash of the bytes */
	int64		first;			/* first entry with this hash (a chain via next) */
} DictBucket;

struct GpugbTextDict
{
	MemoryContext cxt;
	MemoryContext entries_cxt;	/* the local entries: emptied by a reset */
	HTAB	   *buckets;
	/* local entries 1 .. n, [e - 1]: bytes, their id, next with the same hash */
	int64		n;
	int64		capacity;
	char	  **bytes;
	int		   *lengths;
	int64	   *ids;			/* one process: e itself; shared: the shared id */
	int64	   *next;			/* 0 = none */

	/* Parallel ingest (NULL table: a one-process dictionary). */
	dsa_area   *area;
	GpugbSharedTextDict *shared;
	dshash_table *table;
	/* leader: id -> bytes in the DSA, for ids 1 .. n_index */
	int64		n_index;
	dsa_pointer *index_bytes;
	int		   *index_lengths;
};

/*
 * The key of the shared table: the text's bytes, in the DSA for an entry,
 * or the caller's own memory for a probe (which dshash only compares and
 * hashes, never stores except in the entry it inserts, which is fixed
 * before its lock is released).
 */
typedef struct SharedKey
{
	dsa_pointer bytes;
	const char *probe;			/* a probe's bytes; NULL in a finished entry */
	int32		len;
	uint32		hash;
} SharedKey;

typedef struct SharedEntry
{
	SharedKey	key;
	int64		id;
} SharedEntry;

static const char *
shared_key_bytes(dsa_area *area, const SharedKey *key)
{
	return key->probe ? key->probe : (const char *) dsa_get_address(area, key->bytes);
}

/* Equal only with equal bytes: a hash collision is just another entry. */
static int
shared_key_compare(const void *a, const void *b, size_t size, void *arg)
{
	const SharedKey *x = a;
	const SharedKey *y = b;
	dsa_area   *area = ((GpugbTextDict *) arg)->area;

	if (x->hash != y->hash || x->len != y->len)
		return 1;
	return memcmp(shared_key_bytes(area, x), shared_key_bytes(area, y), x->len);
}

static dshash_hash
shared_key_hash(const void *v, size_t size, void *arg)
{
	return ((const SharedKey *) v)->hash;
}

static dshash_parameters
shared_params(int tranche_id)
{
	dshash_parameters params;

	params.key_size = sizeof(SharedKey);
	params.entry_size = sizeof(SharedEntry);
	params.compare_function = shared_key_compare;
	params.hash_function = shared_key_hash;
	params.tranche_id = tranche_id;
	return params;
}

/* The local entries' table, empty. */
static void
entries_init(GpugbTextDict *dict)
{
	HASHCTL		ctl;

	ctl.keysize = sizeof(uint64);
	ctl.entrysize = sizeof(DictBucket);
	ctl.hcxt = dict->entries_cxt;
	dict->buckets = hash_create("gpugb text dictionary", 1024, &ctl,
								HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	dict->n = 0;
	dict->capacity = 1024;
	dict->bytes = MemoryContextAlloc(dict->entries_cxt, dict->capacity * sizeof(char *));
	dict->lengths = MemoryContextAlloc(dict->entries_cxt, dict->capacity * sizeof(int));
	dict->ids = MemoryContextAlloc(dict->entries_cxt, dict->capacity * sizeof(int64));
	dict->next = MemoryContextAlloc(dict->entries_cxt, dict->capacity * sizeof(int64));
	dict->n_index = 0;
	dict->index_bytes = NULL;
	dict->index_lengths = NULL;
}

GpugbTextDict *
gpugb_textdict_create(MemoryContext parent)
{
	MemoryContext cxt = AllocSetContextCreate(parent, "gpugb text dictionary",
											  ALLOCSET_DEFAULT_SIZES);
	GpugbTextDict *dict = MemoryContextAllocZero(cxt, sizeof(GpugbTextDict));

	dict->cxt = cxt;
	dict->entries_cxt = AllocSetContextCreate(cxt, "gpugb text dictionary entries",
											  ALLOCSET_DEFAULT_SIZES);
	entries_init(dict);
	return dict;
}

/* Its local memory (never its DSA, which may be gone already). */
void
gpugb_textdict_free(GpugbTextDict *dict)
{
	MemoryContextDelete(dict->cxt);
}

/* The shared id of these bytes, added if new. */
static int64
shared_id(GpugbTextDict *dict, const char *data, int len, uint32 hash)
{
	SharedKey	key = {InvalidDsaPointer, data, len, hash};
	SharedEntry *entry;
	dsa_pointer copy;
	bool		found;
	int64		id;

	/* Met before (by any process): a shared lock only. */
	entry = dshash_find(dict->table, &key, false);
	if (entry)
	{
		id = entry->id;
		dshash_release_lock(dict->table, entry);
		return id;
	}

	/* The copy is made before the exclusive lock, which is then held briefly. */
	copy = dsa_allocate(dict->area, Max(len, 1));
	memcpy(dsa_get_address(dict->area, copy), data, len);
	entry = dshash_find_or_insert(dict->table, &key, &found);
	if (found)
		dsa_free(dict->area, copy); /* another process inserted it meanwhile */
	else
	{
		entry->key.bytes = copy;
		entry->key.probe = NULL;
		entry->id = (int64) pg_atomic_add_fetch_u64(&dict->shared->last_id, 1);
	}
	id = entry->id;
	dshash_release_lock(dict->table, entry);
	return id;
}

/* The id (>= 1) of these bytes, added if new. */
int64
gpugb_textdict_id(GpugbTextDict *dict, const char *data, int len)
{
	uint64		hash = hash_bytes_extended((const unsigned char *) data, len, 0);
	bool		found;
	DictBucket *bucket = hash_search(dict->buckets, &hash, HASH_ENTER, &found);
	int64		e;

	if (found)
		for (e = bucket->first; e != 0; e = dict->next[e - 1])
			if (dict->lengths[e - 1] == len && memcmp(dict->bytes[e - 1], data, len) == 0)
				return dict->ids[e - 1];

	if (dict->n == dict->capacity)
	{
		dict->capacity *= 2;
		dict->bytes = repalloc_huge(dict->bytes, dict->capacity * sizeof(char *));
		dict->lengths = repalloc_huge(dict->lengths, dict->capacity * sizeof(int));
		dict->ids = repalloc_huge(dict->ids, dict->capacity * sizeof(int64));
		dict->next = repalloc_huge(dict->next, dict->capacity * sizeof(int64));
	}
	e = ++dict->n;
	dict->bytes[e - 1] = MemoryContextAlloc(dict->entries_cxt, Max(len, 1));
	memcpy(dict->bytes[e - 1], data, len);
	dict->lengths[e - 1] = len;
	dict->ids[e - 1] = dict->table ? shared_id(dict, data, len, (uint32) hash) : e;
	dict->next[e - 1] = found ? bucket->first : 0;
	bucket->first = e;
	return dict->ids[e - 1];
}

/*
 * Leader: the index id -> bytes of every shared entry.  Ids are dense, so
 * an id missing from the table is a bug, not a race: the workers are done
 * by the time groups are decoded.
 */
static void
build_index(GpugbTextDict *dict)
{
	int64		n = (int64) pg_atomic_read_u64(&dict->shared->last_id);
	dshash_seq_status status;
	SharedEntry *entry;

	if (dict->index_bytes)
	{
		pfree(dict->index_bytes);
		pfree(dict->index_lengths);
	}
	dict->index_bytes = MemoryContextAllocHuge(dict->entries_cxt, Max(n, 1) * sizeof(dsa_pointer));
	dict->index_lengths = MemoryContextAllocHuge(dict->entries_cxt, Max(n, 1) * sizeof(int));
	for (int64 id = 1; id <= n; id++)
		dict->index_bytes[id - 1] = InvalidDsaPointer;
	dshash_seq_init(&status, dict->table, false);
	while ((entry = dshash_seq_next(&status)) != NULL)
		if (entry->id >= 1 && entry->id <= n)
		{
			dict->index_bytes[entry->id - 1] = entry->key.bytes;
			dict->index_lengths[entry->id - 1] = entry->key.len;
		}
	dshash_seq_term(&status);
	dict->n_index = n;
}

/* The text of an id, in the current memory context. */
text *
gpugb_textdict_text(GpugbTextDict *dict, int64 id)
{
	if (dict->table == NULL)
	{
		if (id < 1 || id > dict->n)
			elog(ERROR, "gpugb: text dictionary id " INT64_FORMAT " out of range", id);
		return cstring_to_text_with_len(dict->bytes[id - 1], dict->lengths[id - 1]);
	}
	if (id > dict->n_index)
		build_index(dict);
	if (id < 1 || id > dict->n_index || !DsaPointerIsValid(dict->index_bytes[id - 1]))
		elog(ERROR, "gpugb: shared text dictionary id " INT64_FORMAT " out of range", id);
	return cstring_to_text_with_len(dsa_get_address(dict->area, dict->index_bytes[id - 1]),
									dict->index_lengths[id - 1]);
}

/*
 * A one-process dictionary's ids are 1 .. count; textorder.c reads their
 * bytes in place (they live as long as the dictionary, or its next reset).
 */
int64
gpugb_textdict_count(const GpugbTextDict *dict)
{
	if (dict->table != NULL)
		elog(ERROR, "gpugb: a shared text dictionary has no local count");
	return dict->n;
}

const char *
gpugb_textdict_bytes(const GpugbTextDict *dict, int64 id, int *len)
{
	if (dict->table != NULL || id < 1 || id > dict->n)
		elog(ERROR, "gpugb: text dictionary id " INT64_FORMAT " out of range", id);
	*len = dict->lengths[id - 1];
	return dict->bytes[id - 1];
}

/* No shared dictionary (yet): workers then encode no long key. */
void
gpugb_textdict_shared_init(GpugbSharedTextDict *shared)
{
	shared->handle = InvalidDsaPointer;
	shared->tranche_id = 0;
	pg_atomic_init_u64(&shared->last_id, 0);
}

/* One tranche id per backend, for the partition locks of its tables. */
static int
dict_tranche(void)
{
	static int	tranche_id = 0;

	if (tranche_id == 0)
		tranche_id = LWLockNewTrancheId();
	LWLockRegisterTranche(tranche_id, "gpugb_text_dict");
	return tranche_id;
}

/*
 * Leader, setting up the DSM before workers start: the dictionary becomes
 * the query's shared one, in area.  It has encoded nothing yet.
 */
void
gpugb_textdict_share(GpugbTextDict *dict, dsa_area *area, GpugbSharedTextDict *shared)
{
	MemoryContext oldcxt = MemoryContextSwitchTo(dict->cxt);
	dshash_parameters params = shared_params(dict_tranche());

	Assert(dict->table == NULL && dict->n == 0);
	dict->area = area;
	dict->shared = shared;
	dict->table = dshash_create(area, &params, dict);
	shared->handle = dshash_get_hash_table_handle(dict->table);
	shared->tranche_id = params.tranche_id;
	pg_atomic_write_u64(&shared->last_id, 0);
	MemoryContextSwitchTo(oldcxt);
}

/* Worker: the query's shared dictionary, or NULL where the leader made none. */
GpugbTextDict *
gpugb_textdict_attach(MemoryContext parent, dsa_area *area, GpugbSharedTextDict *shared)
{
	GpugbTextDict *dict;
	MemoryContext oldcxt;
	dshash_parameters params;

	if (area == NULL || !DsaPointerIsValid(shared->handle))
		return NULL;
	dict = gpugb_textdict_create(parent);
	oldcxt = MemoryContextSwitchTo(dict->cxt);
	LWLockRegisterTranche(shared->tranche_id, "gpugb_text_dict");
	params = shared_params(shared->tranche_id);
	dict->area = area;
	dict->shared = shared;
	dict->table = dshash_attach(area, &params, shared->handle, dict);
	MemoryContextSwitchTo(oldcxt);
	return dict;
}

/*
 * Leader, before workers are launched again for a rescan: an empty
 * dictionary, its DSA copies freed (the area lives as long as the query,
 * so a rescanned node must not pile them up).
 */
void
gpugb_textdict_reset(GpugbTextDict *dict)
{
	if (dict->table)
	{
		dshash_seq_status status;
		SharedEntry *entry;

		dshash_seq_init(&status, dict->table, true);
		while ((entry = dshash_seq_next(&status)) != NULL)
		{
			dsa_free(dict->area, entry->key.bytes);
			dshash_delete_current(&status);
		}
		dshash_seq_term(&status);
		pg_atomic_write_u64(&dict->shared->last_id, 0);
	}
	MemoryContextReset(dict->entries_cxt);
	entries_init(dict);
}
