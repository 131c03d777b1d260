/**
 * The org settings service: members read them, owners and admins change them. A change merges
 * into the stored row in one statement (jsonb `||`), so two admins switching different settings
 * at once both win.
 */
import { eq, sql } from 'drizzle-orm'
import { isOrgAdmin, type Caller } from '../access/caller.ts'
import { getDb, type Db } from '../db/client.ts'
import { orgSettings } from '../db/schema/app.ts'
import { limitsAboveDeployment } from '../lib/deployment-exec-limits.ts'
import { badFields, forbidden } from '../lib/errors.ts'
import { parseInput } from '../lib/validate.ts'
import { DEFAULT_ORG_SETTINGS, OrgSettings, OrgSettingsPatch } from './org-settings-schema.ts'

export type OrgSettingsView = {
  settings: OrgSettings
  updatedAt: string | null
  updatedBy: string | null
  canEdit: boolean
}

/** The settings in force for an organisation (defaults when none were stored). */
export async function readOrgSettings(orgId: string, db: Db = getDb()): Promise<OrgSettings> {
  const [row] = await db
    .select({ settings: orgSettings.settings })
    .from(orgSettings)
    .where(eq(orgSettings.orgId, orgId))
  return row ? orgSettingsFromStored(row.settings) : DEFAULT_ORG_SETTINGS
}

export async function getOrgSettings(caller: Caller, db: Db = getDb()): Promise<OrgSettingsView> {
  const [row] = await db.select().from(orgSettings).where(eq(orgSettings.orgId, caller.orgId))
  return {
    settings: row ? orgSettingsFromStored(row.settings) : DEFAULT_ORG_SETTINGS,
    updatedAt: row?.updatedAt.toISOString() ?? null,
    updatedBy: row?.updatedBy ?? null,
    canEdit: isOrgAdmin(caller),
  }
}

export async function updateOrgSettings(
  caller: Caller,
  input: unknown,
  db: Db = getDb(),
): Promise<OrgSettingsView> {
  if (!isOrgAdmin(caller)) throw forbidden('Only owners and admins can change organisation settings')
  const patch = parseInput(OrgSettingsPatch, input)
  const above = limitsAboveDeployment(patch.execLimits ?? {})
  if (above.length) throw badFields(above)
  const values = { orgId: caller.orgId, settings: patch, updatedAt: new Date(), updatedBy: caller.userId }
  await db
    .insert(orgSettings)
    .values(values)
    .onConflictDoUpdate({
      target: orgSettings.orgId,
      set: {
        settings: sql`${orgSettings.settings} || excluded.settings`,
        updatedAt: values.updatedAt,
        updatedBy: values.updatedBy,
      },
    })
  return getOrgSettings(caller, db)
}

/** Stored settings as in force: a row may predate a setting (default) or hold one a later version removed (dropped). */
export function orgSettingsFromStored(stored: unknown): OrgSettings {
  const parsed = OrgSettings.safeParse(stored)
  return parsed.success ? parsed.data : DEFAULT_ORG_SETTINGS
}
