-- The device keeper (src/keeper.c): with gpugb preloaded and a CUDA driver
-- and device on the machine, exactly one background worker keeps the driver
-- initialised and waits idle; without a device it has logged why and exited.
\ir setup.sql
SELECT no_plan();

SELECT current_setting('shared_preload_libraries') ~ '(^|[ ,])gpugb($|[ ,])' AS preloaded,
       current_setting('gpugb.device_keeper')::bool AS keeper_on,
       gpugb_device_info() NOT LIKE 'no device%' AS has_device \gset
SELECT diag(format('preloaded %s, gpugb.device_keeper %s, device: %s',
                   :'preloaded', :'keeper_on', gpugb_device_info()));

SELECT CASE WHEN :'preloaded'::bool AND :'keeper_on'::bool AND :'has_device'::bool THEN 1 ELSE 0 END
       AS keepers_expected \gset
-- Right after a server start the keeper may still be starting the driver
-- (about 0.1 s): give it up to 10 s to reach its latch.
SELECT set_config('gpugb_test.keepers_expected', :'keepers_expected', false) IS NOT NULL AS keepers_expected_set \gset
DO $$
BEGIN
    FOR i IN 1..100 LOOP
        EXIT WHEN (SELECT count(*) FROM pg_stat_activity
                    WHERE backend_type = 'gpugb device keeper' AND wait_event = 'Extension')
                  >= current_setting('gpugb_test.keepers_expected')::int;
        PERFORM pg_sleep(0.1);
        PERFORM pg_stat_clear_snapshot();
    END LOOP;
END
$$;
SELECT is((SELECT count(*)::int FROM pg_stat_activity WHERE backend_type = 'gpugb device keeper'),
          :keepers_expected,
          format('%s gpugb device keeper(s) running', :keepers_expected));
SELECT is((SELECT string_agg(DISTINCT wait_event, ',') FROM pg_stat_activity
            WHERE backend_type = 'gpugb device keeper'),
          CASE WHEN :keepers_expected = 1 THEN 'Extension' END,
          'the keeper waits on its latch (wait event Extension)');
-- In gpu mode on the GPU box the keeper must be there: a device and gpugb
-- preloaded are what that mode runs with.
SELECT CASE WHEN current_setting('gpugb_test.expect', true) = 'gpu'
             AND NOT current_setting('gpugb.emulate_device')::bool
            THEN is(:keepers_expected, 1, 'gpu mode: the keeper is expected')
            ELSE pass('not gpu mode: no keeper required') END;

SELECT * FROM finish();
