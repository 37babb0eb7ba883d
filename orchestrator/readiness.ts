/**
 * What /readyz asks the database: a round trip answers (the migrations are compared by sql/migrate.ts).
 */
import { sql, type CommonQueryMethods } from 'slonik';

export async function pingDatabase(connection: CommonQueryMethods): Promise<void> {
  await connection.query(sql.unsafe`SELECT 1`);
}
