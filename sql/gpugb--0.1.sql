-- gpugb 0.1: status functions.  The GROUP BY offload itself needs no SQL
-- objects: it is a planner hook, active once the library is loaded
-- (shared_preload_libraries or session_preload_libraries = 'gpugb').
\echo Use "CREATE EXTENSION gpugb" to load this file. \quit

CREATE FUNCTION gpugb_device_info() RETURNS text
AS 'MODULE_PATHNAME', 'gpugb_device_info' LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION gpugb_device_info() IS 'the GPU gpugb uses in this backend, or why there is none';

CREATE FUNCTION gpugb_memory_in_use(OUT device_bytes bigint, OUT pinned_bytes bigint,
                                    OUT streams int, OUT handles int)
AS 'MODULE_PATHNAME', 'gpugb_memory_in_use' LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION gpugb_memory_in_use() IS 'device memory, pinned memory and streams gpugb holds in this backend now';

CREATE FUNCTION gpugb_backend_stats(OUT gpu_runs bigint, OUT fallbacks bigint,
                                    OUT last_fallback_reason text)
AS 'MODULE_PATHNAME', 'gpugb_backend_stats_fn' LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION gpugb_backend_stats() IS 'GPU aggregations and fallbacks in this backend so far';

CREATE FUNCTION gpugb_device_memory_budget(OUT reserved_bytes bigint, OUT limit_bytes bigint)
AS 'MODULE_PATHNAME', 'gpugb_device_memory_budget' LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION gpugb_device_memory_budget() IS 'device memory gpugb queries of all sessions hold now (NULL unless preloaded), and gpugb.max_device_memory (0 = no limit)';
