-- Config as code (`aasa-monitor apply`): a channel's target and secret as the config file wrote
-- them, with `${NAME}` environment references unresolved. `export --yaml` writes these, never the
-- stored values, so a secret that came from the environment is never written back to a file.
-- NULL when the channel was not set by a config file, or its target was changed by hand since.
ALTER TABLE channels ADD COLUMN target_template text, ADD COLUMN secret_template text;
