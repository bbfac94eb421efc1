-- Hand-written guards that Prisma's schema language cannot express.

-- The ledger is append-only: a settlement or credit is corrected by a new row, never by editing history.
CREATE FUNCTION "ledger_entries_append_only"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_entries is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER "ledger_entries_no_update_or_delete"
  BEFORE UPDATE OR DELETE ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION "ledger_entries_append_only"();

-- Money moves by the kind of a row, never by its sign.
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_amount_not_negative" CHECK ("amount" >= 0);
ALTER TABLE "holds" ADD CONSTRAINT "holds_amount_not_negative" CHECK ("amount" >= 0);

-- held is the sum of open holds, so below zero it would mean a hold was released twice.
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_held_not_negative" CHECK ("held" >= 0);
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_overdraft_limit_not_negative" CHECK ("overdraft_limit" >= 0);
