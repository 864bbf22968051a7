/**
 * How long what a user deletes lingers in our backups, as the terms state it and the infrastructure enforces it
 * (lib/constructs/data.ts): one number for both, so the terms cannot drift from the bucket and the table.
 */

/** A deleted or overwritten media file's old version is kept this many days, then S3's lifecycle rule expires it. */
export const DELETED_MEDIA_DAYS = 30;
/** The table's point-in-time recovery window: a deleted record can be restored from its backups this many days. */
export const TABLE_BACKUP_DAYS = 35;
