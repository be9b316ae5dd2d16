-- Box office (issue 19): counter sales (provider box_office, paid by cash or card at the counter, sold by a staff member), staff refunds and exchanges (payment_refunds.kind, who and why; one whole-seat refund per line, any number of exchange differences), and what a customer still owes after an exchange (due_cents).
ALTER TABLE "payment_refunds" DROP CONSTRAINT "payment_refunds_session_booking_unique";--> statement-breakpoint
ALTER TABLE "checkout_sessions" DROP CONSTRAINT "checkout_sessions_provider_check";--> statement-breakpoint
ALTER TABLE "checkout_session_bookings" ADD COLUMN "due_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_session_bookings" ADD COLUMN "exchanged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "payment_method" text;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "sold_by" uuid;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "customer_email" text;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "customer_name" text;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD COLUMN "kind" text DEFAULT 'lost_seat' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD COLUMN "created_by" uuid;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_sold_by_users_id_fk" FOREIGN KEY ("sold_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_refunds_whole_seat_unique" ON "payment_refunds" USING btree ("session_booking_id") WHERE "payment_refunds"."kind" <> 'exchange';--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_payment_method_check" CHECK ("checkout_sessions"."payment_method" is null or "checkout_sessions"."payment_method" in ('cash', 'card'));--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_provider_check" CHECK ("checkout_sessions"."provider" in ('local', 'stripe', 'none', 'box_office'));--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_kind_check" CHECK ("payment_refunds"."kind" in ('lost_seat', 'staff', 'exchange'));--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_amount_check" CHECK ("payment_refunds"."amount_cents" >= 0);