-- Gift cards (DESIGN §7.3, decision 045): a card's balance lives on its row, kept by the database between zero and
-- what it was sold for, and every change is an entry of its ledger. A gift card payment of an order names its card;
-- a gift card line keeps who the card is for and the buyer's message until it is paid and the card issued.
CREATE TABLE "gift_cards" (
	"id" uuid PRIMARY KEY DEFAULT uuid_v7() NOT NULL,
	"code" text NOT NULL,
	"currency" text NOT NULL,
	"initial_cents" integer NOT NULL,
	"balance_cents" integer NOT NULL,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"order_id" uuid,
	"line_id" uuid,
	"recipient_email" text,
	"message" text,
	"voided_at" timestamp with time zone,
	"voided_by" uuid,
	CONSTRAINT "gift_cards_code_unique" UNIQUE("code"),
	CONSTRAINT "gift_cards_code_check" CHECK ("gift_cards"."code" ~ '^[0-9A-HJKMNP-TV-Z]{16}$'),
	CONSTRAINT "gift_cards_status_check" CHECK ("gift_cards"."status" in ('ACTIVE', 'VOIDED')),
	CONSTRAINT "gift_cards_balance_check" CHECK ("gift_cards"."initial_cents" > 0 and "gift_cards"."balance_cents" >= 0 and "gift_cards"."balance_cents" <= "gift_cards"."initial_cents")
);
--> statement-breakpoint
CREATE TABLE "gift_card_transactions" (
	"id" uuid PRIMARY KEY DEFAULT uuid_v7() NOT NULL,
	"gift_card_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"balance_after_cents" integer NOT NULL,
	"order_id" uuid,
	"payment_id" uuid,
	"created_by" uuid,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gift_card_transactions_kind_check" CHECK ("gift_card_transactions"."kind" in ('SOLD', 'REDEEMED', 'RELEASED', 'REFUNDED', 'VOIDED')),
	CONSTRAINT "gift_card_transactions_balance_check" CHECK ("gift_card_transactions"."balance_after_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "order_payments" ADD COLUMN "gift_card_id" uuid;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "recipient_email" text;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "message" text;--> statement-breakpoint
ALTER TABLE "gift_cards" ADD CONSTRAINT "gift_cards_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_cards" ADD CONSTRAINT "gift_cards_line_id_order_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."order_lines"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_cards" ADD CONSTRAINT "gift_cards_voided_by_users_id_fk" FOREIGN KEY ("voided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_card_transactions" ADD CONSTRAINT "gift_card_transactions_gift_card_id_gift_cards_id_fk" FOREIGN KEY ("gift_card_id") REFERENCES "public"."gift_cards"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_card_transactions" ADD CONSTRAINT "gift_card_transactions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_card_transactions" ADD CONSTRAINT "gift_card_transactions_payment_id_order_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."order_payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_card_transactions" ADD CONSTRAINT "gift_card_transactions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_payments" ADD CONSTRAINT "order_payments_gift_card_id_gift_cards_id_fk" FOREIGN KEY ("gift_card_id") REFERENCES "public"."gift_cards"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gift_cards_recipient_idx" ON "gift_cards" USING btree (lower("recipient_email"));--> statement-breakpoint
CREATE INDEX "gift_cards_order_idx" ON "gift_cards" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "gift_card_transactions_card_idx" ON "gift_card_transactions" USING btree ("gift_card_id","created_at");--> statement-breakpoint
CREATE INDEX "gift_card_transactions_created_idx" ON "gift_card_transactions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "order_payments_gift_card_idx" ON "order_payments" USING btree ("gift_card_id") WHERE "order_payments"."gift_card_id" is not null;--> statement-breakpoint
ALTER TABLE "order_payments" ADD CONSTRAINT "order_payments_gift_card_check" CHECK (("order_payments"."method" = 'GIFT_CARD') = ("order_payments"."gift_card_id" is not null));
