CREATE INDEX "job_audit_at_brin" ON "job_audit" USING brin ("at");--> statement-breakpoint
CREATE INDEX "environment_audit_at_brin" ON "environment_audit" USING brin ("at");--> statement-breakpoint
CREATE INDEX "skill_audit_at_brin" ON "skill_audit" USING brin ("at");