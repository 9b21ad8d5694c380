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
 * meeting the same hot key would otherwise fight over.
 *
 * The leader decodes ids (long keys of groups, and texts of min/max that
 * textorder.c ranks while workers are still inserting) through an index
 * id -> (bytes, length) in the DSA, which the inserting process publishes
 * itself: the index is a list of chunks of doubling size (textdict.h),
 * each allocated by the first process to need it and installed once by a
 * compare-and-exchange on its pointer in the DSM, and an entry is written
 * before the partition lock of the new table entry is released.  So any
 * process that found the id in the table, or read it from a slot a worker
 * filled (the slot hand-off in parallel.c is under a spinlock, after the
 * worker's fill), can read its entry; a lookup is O(1), and no process
 * ever scans the table except to empty it.  An id taken but not yet
 * published reads as NULL (gpugb_textdict_bytes).
 *
 * A new text's bytes are copied into a block of the DSA that the
 * inserting process carves its copies from (TEXT_BLOCK_SIZE), not into an
 * allocation of their own, whose size-class lock every new text took.  On
 * the H200 box sixteen workers filling ClickBench Q34's shape (three
 * million distinct long URLs in 30 million rows) spent up to about 20 us
 * per new text, ten times what two workers spend locally: contention for
 * the shared structures, of which that lock was the one taken per text.
 * Each block is pushed onto a list in the DSM when allocated.
 *
 * The DSA goes with the Gather's DSM segment (at the end of the query, on
 * ERROR too), so nothing in it needs freeing here, except on a rescan,
 * which empties the table and the index and frees the blocks.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "port/pg_bitutils.h"
#include "storage/lwlock.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "textdict.h"

typedef struct DictBucket
{
	uint64		hash;			/* the key: a hash of the bytes */
	int64		first;			/* first entry with this hash (a chain via next) */
	char		status;			/* simplehash's */
} DictBucket;

/*
 * The local buckets: PostgreSQL's open-addressing simplehash, keyed by the
 * 64-bit hash itself.  A text met for the first time costs a lookup here
 * before the shared table's; with dynahash that lookup was most of the
 * dictionary's time when nearly every long key is new (perf, ClickBench
 * Q34's shape, locally).
 */
#define SH_PREFIX		dictbuckets
#define SH_ELEMENT_TYPE	DictBucket
#define SH_KEY_TYPE		uint64
#define SH_KEY			hash
#define SH_HASH_KEY(tb, key)	((uint32) ((key) ^ ((key) >> 32)))
#define SH_EQUAL(tb, a, b)	((a) == (b))
#define SH_SCOPE		static inline
#define SH_DECLARE
#define SH_DEFINE
#include "lib/simplehash.h"

struct GpugbTextDict
{
	MemoryContext cxt;
	MemoryContext entries_cxt;	/* the local entries: emptied by a reset */
	dictbuckets_hash *buckets;
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
	/* this process's current block of text copies, and the bytes used in it */
	dsa_pointer block;
	Size		block_used;
};

/*
 * Text copies per block: a block is one DSA allocation (and one lock) per
 * few thousand texts.  A text longer than a quarter of it gets a block of
 * its own.  A block starts with the next block's pointer (the list).
 */
#define TEXT_BLOCK_SIZE (256 * 1024)

/* An entry of the shared index (bytes InvalidDsaPointer: not published). */
typedef struct IndexEntry
{
	dsa_pointer bytes;
	int64		len;
} IndexEntry;

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
	dict->buckets = dictbuckets_create(dict->entries_cxt, 1024, NULL);
	dict->n = 0;
	dict->capacity = 1024;
	dict->bytes = MemoryContextAlloc(dict->entries_cxt, dict->capacity * sizeof(char *));
	dict->lengths = MemoryContextAlloc(dict->entries_cxt, dict->capacity * sizeof(int));
	dict->ids = MemoryContextAlloc(dict->entries_cxt, dict->capacity * sizeof(int64));
	dict->next = MemoryContextAlloc(dict->entries_cxt, dict->capacity * sizeof(int64));
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

/* The index chunk of an id, its place in it, and the chunk's size. */
static int
index_chunk(int64 id, int64 *offset, int64 *size)
{
	uint64		x = (uint64) (id - 1) / GPUGB_TEXTDICT_CHUNK0;
	int			k;

	if (x == 0)
	{
		*offset = id - 1;
		*size = GPUGB_TEXTDICT_CHUNK0;
		return 0;
	}
	k = pg_leftmost_one_pos64(x) + 1;
	*size = (int64) GPUGB_TEXTDICT_CHUNK0 << (k - 1);
	*offset = id - 1 - *size;
	return k;
}

/*
 * The inserting process, holding the lock of the new table entry: makes
 * id -> bytes readable by every process.  A chunk's pointer is installed
 * once: a process that loses the race frees its own chunk.
 */
static void
index_publish(GpugbTextDict *dict, int64 id, dsa_pointer bytes, int len)
{
	int64		offset,
				size;
	int			k = index_chunk(id, &offset, &size);
	dsa_pointer chunk;
	IndexEntry *entry;

	if (k >= GPUGB_TEXTDICT_CHUNKS)
		elog(ERROR, "gpugb: shared text dictionary id " INT64_FORMAT " out of range", id);
	chunk = dsa_pointer_atomic_read(&dict->shared->index_chunks[k]);
	if (!DsaPointerIsValid(chunk))
	{
		dsa_pointer fresh = dsa_allocate_extended(dict->area, size * sizeof(IndexEntry),
												  DSA_ALLOC_HUGE | DSA_ALLOC_ZERO);

		chunk = InvalidDsaPointer;
		if (dsa_pointer_atomic_compare_exchange(&dict->shared->index_chunks[k], &chunk, fresh))
			chunk = fresh;
		else
			dsa_free(dict->area, fresh);	/* chunk: the winner's */
	}
	entry = (IndexEntry *) dsa_get_address(dict->area, chunk) + offset;
	entry->len = len;
	entry->bytes = bytes;
}

/* The bytes of a shared id, or NULL if not published (yet). */
static const char *
index_lookup(const GpugbTextDict *dict, int64 id, int *len)
{
	int64		offset,
				size;
	int			k;
	dsa_pointer chunk;
	const IndexEntry *entry;

	if (id < 1)
		return NULL;
	k = index_chunk(id, &offset, &size);
	if (k >= GPUGB_TEXTDICT_CHUNKS)
		return NULL;
	chunk = dsa_pointer_atomic_read(&dict->shared->index_chunks[k]);
	if (!DsaPointerIsValid(chunk))
		return NULL;
	entry = (const IndexEntry *) dsa_get_address(dict->area, chunk) + offset;
	if (!DsaPointerIsValid(entry->bytes))
		return NULL;
	*len = (int) entry->len;
	return dsa_get_address(dict->area, entry->bytes);
}

/* Puts a block allocated in the DSA on the shared list of text blocks. */
static void
push_block(GpugbTextDict *dict, dsa_pointer block)
{
	dsa_pointer *next = dsa_get_address(dict->area, block);
	dsa_pointer head = dsa_pointer_atomic_read(&dict->shared->text_blocks);

	do
		*next = head;
	while (!dsa_pointer_atomic_compare_exchange(&dict->shared->text_blocks, &head, block));
}

/* Is a text of len bytes too long for the blocks (a block of its own)? */
static inline bool
text_gets_own_block(int len)
{
	return Max(len, 1) > TEXT_BLOCK_SIZE / 4;
}

/*
 * Where this process's next text copy of len bytes goes, in the DSA.  A
 * block's space is taken only by text_space_taken: a copy whose text
 * another process inserted first is written over by the next one.  A long
 * text's own block (*own) goes on the list only when its text is inserted
 * (text_space_taken), else it is freed (text_space_lost).
 */
static dsa_pointer
text_space(GpugbTextDict *dict, int len, dsa_pointer *own)
{
	*own = InvalidDsaPointer;
	if (text_gets_own_block(len))
	{
		*own = dsa_allocate_extended(dict->area, sizeof(dsa_pointer) + len, DSA_ALLOC_HUGE);
		return *own + sizeof(dsa_pointer);
	}
	if (!DsaPointerIsValid(dict->block) || dict->block_used + Max(len, 1) > TEXT_BLOCK_SIZE)
	{
		dict->block = dsa_allocate(dict->area, TEXT_BLOCK_SIZE);
		push_block(dict, dict->block);
		dict->block_used = sizeof(dsa_pointer);
	}
	return dict->block + dict->block_used;
}

static void
text_space_taken(GpugbTextDict *dict, int len, dsa_pointer own)
{
	if (DsaPointerIsValid(own))
		push_block(dict, own);
	else
		dict->block_used += Max(len, 1);
}

static void
text_space_lost(GpugbTextDict *dict, dsa_pointer own)
{
	if (DsaPointerIsValid(own))
		dsa_free(dict->area, own);
}

/* The shared id of these bytes, added if new. */
static int64
shared_id(GpugbTextDict *dict, const char *data, int len, uint32 hash)
{
	SharedKey	key = {InvalidDsaPointer, data, len, hash};
	SharedEntry *entry;
	dsa_pointer copy;
	dsa_pointer own;
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
	copy = text_space(dict, len, &own);
	memcpy(dsa_get_address(dict->area, copy), data, len);
	entry = dshash_find_or_insert(dict->table, &key, &found);
	if (found)
		text_space_lost(dict, own); /* another process inserted it meanwhile */
	else
	{
		text_space_taken(dict, len, own);
		entry->key.bytes = copy;
		entry->key.probe = NULL;
		entry->id = (int64) pg_atomic_add_fetch_u64(&dict->shared->last_id, 1);
		/* before the lock is released: whoever finds the entry finds its bytes */
		index_publish(dict, entry->id, copy, len);
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
	DictBucket *bucket = dictbuckets_insert(dict->buckets, hash, &found);
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

/* The text of an id, in the current memory context. */
text *
gpugb_textdict_text(GpugbTextDict *dict, int64 id)
{
	int			len;
	const char *bytes = gpugb_textdict_bytes(dict, id, &len);

	if (bytes == NULL)
		elog(ERROR, "gpugb: shared text dictionary id " INT64_FORMAT " not found", id);
	return cstring_to_text_with_len(bytes, len);
}

/*
 * The bytes of an id, valid as long as the dictionary (until its next
 * reset).  A one-process dictionary's ids are its own entries 1 .. n; a
 * shared one's are read from the index, and an id taken by another
 * process but not yet published is NULL (never one this process met, or
 * read from a slot it took: see the header).
 */
const char *
gpugb_textdict_bytes(const GpugbTextDict *dict, int64 id, int *len)
{
	if (dict->table != NULL)
		return index_lookup(dict, id, len);
	if (id < 1 || id > dict->n)
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
	for (int k = 0; k < GPUGB_TEXTDICT_CHUNKS; k++)
		dsa_pointer_atomic_init(&shared->index_chunks[k], InvalidDsaPointer);
	dsa_pointer_atomic_init(&shared->text_blocks, InvalidDsaPointer);
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
	for (int k = 0; k < GPUGB_TEXTDICT_CHUNKS; k++)
		dsa_pointer_atomic_write(&shared->index_chunks[k], InvalidDsaPointer);
	dsa_pointer_atomic_write(&shared->text_blocks, InvalidDsaPointer);
	dict->block = InvalidDsaPointer;
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

		dsa_pointer block;

		dshash_seq_init(&status, dict->table, true);
		while ((entry = dshash_seq_next(&status)) != NULL)
			dshash_delete_current(&status);
		dshash_seq_term(&status);
		/* the texts' bytes: every process's blocks (the workers have exited) */
		block = dsa_pointer_atomic_read(&dict->shared->text_blocks);
		while (DsaPointerIsValid(block))
		{
			dsa_pointer next = *(dsa_pointer *) dsa_get_address(dict->area, block);

			dsa_free(dict->area, block);
			block = next;
		}
		dsa_pointer_atomic_write(&dict->shared->text_blocks, InvalidDsaPointer);
		dict->block = InvalidDsaPointer;
		pg_atomic_write_u64(&dict->shared->last_id, 0);
		for (int k = 0; k < GPUGB_TEXTDICT_CHUNKS; k++)
		{
			dsa_pointer chunk = dsa_pointer_atomic_read(&dict->shared->index_chunks[k]);

			if (DsaPointerIsValid(chunk))
				dsa_free(dict->area, chunk);
			dsa_pointer_atomic_write(&dict->shared->index_chunks[k], InvalidDsaPointer);
		}
	}
	MemoryContextReset(dict->entries_cxt);
	entries_init(dict);
}
