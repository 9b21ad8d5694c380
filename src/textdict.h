/*-------------------------------------------------------------------------
 * textdict.h
 *    Long text keys, dictionary-encoded by the process that feeds the GPU
 *    (see textdict.c).
 *-------------------------------------------------------------------------
 */
#ifndef GPUGB_TEXTDICT_H
#define GPUGB_TEXTDICT_H

#include "postgres.h"

typedef struct GpugbTextDict GpugbTextDict;

extern GpugbTextDict *gpugb_textdict_create(MemoryContext parent);
extern int64 gpugb_textdict_id(GpugbTextDict *dict, const char *data, int len);
extern text *gpugb_textdict_text(GpugbTextDict *dict, int64 id);

#endif							/* GPUGB_TEXTDICT_H */
