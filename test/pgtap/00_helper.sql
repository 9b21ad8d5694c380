-- Self-test of the comparison helpers in setup.sql (no GPU involved).
\ir setup.sql
SELECT plan(12);
SELECT ok(gpugb_float_close(1.0, 1.0, 1e-9), 'equal floats are close');
SELECT ok(gpugb_float_close(1.0, 1.0 + 1e-12, 1e-9), 'floats within the tolerance are close');
SELECT ok(NOT gpugb_float_close(1.0, 1.0 + 1e-6, 1e-9), 'floats outside the tolerance differ');
SELECT ok(gpugb_float_close(NULL, NULL, 1e-9), 'NULL matches NULL');
SELECT ok(NOT gpugb_float_close(NULL, 0, 1e-9), 'NULL does not match 0');
SELECT ok(gpugb_float_close('NaN', 'NaN', 1e-9), 'NaN matches NaN');
SELECT ok(NOT gpugb_float_close('NaN', 1e308, 1e-9), 'NaN does not match a number');
SELECT ok(gpugb_float_close('Infinity', 'Infinity', 1e-9), 'Infinity matches Infinity');
SELECT ok(NOT gpugb_float_close('Infinity', '-Infinity', 1e-9), 'Infinity does not match -Infinity');
SELECT ok(NOT gpugb_float_close('Infinity', 1.7e308, 1e-9), 'Infinity does not match a large number');
SELECT ok(gpugb_float_close('-0', '0', 1e-9), '-0 matches 0');
SELECT ok(gpugb_rand(1, 1) <> gpugb_rand(1, 2) AND gpugb_rand(5, 1) = gpugb_rand(5, 1)
          AND gpugb_rand(7, 3) >= 0 AND gpugb_rand(7, 3) < 1, 'gpugb_rand is deterministic, in [0, 1)');
SELECT * FROM finish();
