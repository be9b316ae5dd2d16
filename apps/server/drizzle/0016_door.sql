-- The door (issue 20, DESIGN §6.5): the STAFF role, and who checked each ticket in and on which device.
ALTER TABLE "users" DROP CONSTRAINT "users_role_check";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "checked_in_by" uuid;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "checked_in_device" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_checked_in_by_users_id_fk" FOREIGN KEY ("checked_in_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_check" CHECK ("users"."role" in ('ADMIN', 'STAFF', 'USER'));