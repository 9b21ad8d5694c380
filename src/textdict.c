/*-------------------------------------------------------------------------
 * textdict.c
 *    Long text keys, dictionary-encoded by the process that feeds the GPU.
 *
 * A text key of at most 16 bytes travels as its own bytes in two words
 * (strides.c).  A longer one gets an id here instead: the words (0, id),
 * which no packed value has (a non-empty packed value has a non-zero first
 * byte, and the empty one is (0, 0)).  The GPU groups ids like any words;
 * equal strings get equal ids because the dictionary compares the full
 * bytes, so the grouping is exact.  The dictionary lives in the one
 * process that fills all strides: only a one-process (serial) GPU plan can
 * use it; a parallel worker that meets a long key stops the GPU run and
 * PostgreSQL's plan answers.
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "textdict.h"

typedef struct DictBucket
{
	uint64		hash;			/* the key: a hash of the bytes */
	int64		first;			/* first id with this hash (a chain via next) */
} DictBucket;

struct GpugbTextDict
{
	MemoryContext cxt;
	HTAB	   *buckets;
	int64		n;				/* ids 1 .. n */
	int64		capacity;
	char	  **bytes;			/* [id - 1] */
	int		   *lengths;
	int64	   *next;			/* next id with the same hash, 0 = none */
};

GpugbTextDict *
gpugb_textdict_create(MemoryContext parent)
{
	MemoryContext cxt = AllocSetContextCreate(parent, "gpugb text dictionary",
											  ALLOCSET_DEFAULT_SIZES);
	GpugbTextDict *dict = MemoryContextAllocZero(cxt, sizeof(GpugbTextDict));
	HASHCTL		ctl;

	dict->cxt = cxt;
	ctl.keysize = sizeof(uint64);
	ctl.entrysize = sizeof(DictBucket);
	ctl.hcxt = cxt;
	dict->buckets = hash_create("gpugb text dictionary", 1024, &ctl,
								HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	dict->capacity = 1024;
	dict->bytes = MemoryContextAlloc(cxt, dict->capacity * sizeof(char *));
	dict->lengths = MemoryContextAlloc(cxt, dict->capacity * sizeof(int));
	dict->next = MemoryContextAlloc(cxt, dict->capacity * sizeof(int64));
	return dict;
}

/* The id (>= 1) of these bytes, added if new. */
int64
gpugb_textdict_id(GpugbTextDict *dict, const char *data, int len)
{
	uint64		hash = hash_bytes_extended((const unsigned char *) data, len, 0);
	bool		found;
	DictBucket *bucket = hash_search(dict->buckets, &hash, HASH_ENTER, &found);
	int64		id;

	if (found)
		for (id = bucket->first; id != 0; id = dict->next[id - 1])
			if (dict->lengths[id - 1] == len && memcmp(dict->bytes[id - 1], data, len) == 0)
				return id;

	if (dict->n == dict->capacity)
	{
		dict->capacity *= 2;
		dict->bytes = repalloc_huge(dict->bytes, dict->capacity * sizeof(char *));
		dict->lengths = repalloc_huge(dict->lengths, dict->capacity * sizeof(int));
		dict->next = repalloc_huge(dict->next, dict->capacity * sizeof(int64));
	}
	id = ++dict->n;
	dict->bytes[id - 1] = MemoryContextAlloc(dict->cxt, Max(len, 1));
	memcpy(dict->bytes[id - 1], data, len);
	dict->lengths[id - 1] = len;
	dict->next[id - 1] = found ? bucket->first : 0;
	bucket->first = id;
	return id;
}

/* The text of an id, in the current memory context. */
text *
gpugb_textdict_text(GpugbTextDict *dict, int64 id)
{
	if (id < 1 || id > dict->n)
		elog(ERROR, "gpugb: text dictionary id " INT64_FORMAT " out of range", id);
	return cstring_to_text_with_len(dict->bytes[id - 1], dict->lengths[id - 1]);
}
