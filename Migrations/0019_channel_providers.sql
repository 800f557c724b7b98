-- On-call and chat providers beside email, our signed webhook and Slack: PagerDuty, Opsgenie,
-- Microsoft Teams, Discord, Google Chat, Mattermost/Rocket.Chat, Telegram, ntfy, and a webhook whose
-- JSON body is the user's template. The kind names are ChannelKind's raw values (Store).
ALTER TABLE channels DROP CONSTRAINT channels_kind_check;
ALTER TABLE channels ADD CONSTRAINT channels_kind_check CHECK (kind IN (
    'email', 'webhook', 'slack', 'pagerduty', 'opsgenie', 'teams', 'discord', 'google-chat',
    'mattermost', 'telegram', 'ntfy', 'custom-webhook'));

-- Who receives the message inside the provider, where the URL does not say it: Telegram's chat id.
ALTER TABLE channels ADD COLUMN recipient text;
-- The custom webhook's body: a Mustache template of JSON, rendered per event.
ALTER TABLE channels ADD COLUMN body_template text;

-- `secret` now holds each kind's credential, never shown after it is entered: the webhook signing
-- secret (whsec_…), PagerDuty's routing key, Opsgenie's API key, Telegram's bot token, ntfy's
-- access token. `target` is the address the provider is reached at (for PagerDuty, Opsgenie and
-- Telegram the API's base URL, so an EU region or a test receiver is a different target).
