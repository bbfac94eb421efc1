/** SQL that makes Postgres refuse task rows whose request holds `marker`, with the SQLSTATE given. */
export const refuseTaskRows = (sqlState: string, marker: string) => `
  CREATE OR REPLACE FUNCTION refuse_marked_task() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.request::text LIKE '%${marker}%' THEN
      RAISE EXCEPTION 'task row refused by the test' USING ERRCODE = '${sqlState}';
    END IF;
    RETURN NEW;
  END $$;
  CREATE TRIGGER refuse_marked_task BEFORE INSERT ON tasks
    FOR EACH ROW EXECUTE FUNCTION refuse_marked_task();`;

/** SQL that lets every task row be written again. */
export const ALLOW_TASK_ROWS = 'DROP TRIGGER IF EXISTS refuse_marked_task ON tasks';
