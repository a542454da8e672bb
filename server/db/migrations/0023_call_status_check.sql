-- Issue 20: a placed call whose status callback never came is asked of its provider (Twilio's
-- GET …/Calls/{Sid}.json) by the voice.campaign ticker; when it was last asked, so each open
-- attempt is asked once a minute across instances.
ALTER TABLE call_log ADD COLUMN status_checked_at timestamptz;
