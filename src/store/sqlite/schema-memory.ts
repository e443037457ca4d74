// Schema step 3: memories found by bank (duplicate check, bank listings).

export const MEMORY_SCHEMA = `
CREATE INDEX IF NOT EXISTS documents_bank ON documents(bank_id, updated_at) WHERE bank_id IS NOT NULL;
`;
