-- The judge prompt of a scored run (issue 21, "a judge prompt that can be changed"): the instruction
-- the judge model gets, per test task and rating task. NULL: the default of server/ai/scoring/judge.ts.
ALTER TABLE text_task ADD COLUMN judge_prompt text CHECK (char_length(judge_prompt) <= 4000);
ALTER TABLE text_rating_task ADD COLUMN judge_prompt text CHECK (char_length(judge_prompt) <= 4000);
