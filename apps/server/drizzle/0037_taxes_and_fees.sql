-- Taxes and booking fees (DESIGN §7.4, decision 047): rates per kind (tickets, products by product or category, fees),
-- the mode chosen at /admin/taxes, the booking fee online and at the counter; an order keeps how it was taxed and a
-- fee line whether a refund gives it back.
CREATE TABLE "booking_fees" (
	"channel" text PRIMARY KEY NOT NULL,
	"per_ticket_cents" integer DEFAULT 0 NOT NULL,
	"per_order_cents" integer DEFAULT 0 NOT NULL,
	"exempt_ticket_type_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"refundable" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_fees_channel_check" CHECK ("booking_fees"."channel" in ('ONLINE', 'COUNTER')),
	CONSTRAINT "booking_fees_amounts_check" CHECK ("booking_fees"."per_ticket_cents" >= 0 and "booking_fees"."per_order_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "tax_rates" (
	"id" uuid PRIMARY KEY DEFAULT uuid_v7() NOT NULL,
	"kind" text NOT NULL,
	"product_id" uuid,
	"category_id" uuid,
	"rate_bp" integer NOT NULL,
	CONSTRAINT "tax_rates_kind_check" CHECK ("tax_rates"."kind" in ('TICKET', 'PRODUCT', 'FEE')),
	CONSTRAINT "tax_rates_rate_check" CHECK ("tax_rates"."rate_bp" between 0 and 10000),
	CONSTRAINT "tax_rates_scope_check" CHECK (("tax_rates"."product_id" is null or "tax_rates"."category_id" is null)
        and ("tax_rates"."kind" = 'PRODUCT' or ("tax_rates"."product_id" is null and "tax_rates"."category_id" is null)))
);
--> statement-breakpoint
CREATE TABLE "tax_settings" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"mode" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_settings_one_row" CHECK ("tax_settings"."id"),
	CONSTRAINT "tax_settings_mode_check" CHECK ("tax_settings"."mode" in ('inclusive', 'exclusive'))
);
--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "refundable" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_mode" text;--> statement-breakpoint
ALTER TABLE "tax_rates" ADD CONSTRAINT "tax_rates_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_rates" ADD CONSTRAINT "tax_rates_category_id_product_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."product_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_rates_scope_unique" ON "tax_rates" USING btree ("kind",coalesce("product_id", "category_id", '00000000-0000-0000-0000-000000000000'::uuid));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_tax_mode_check" CHECK ("orders"."tax_mode" is null or "orders"."tax_mode" in ('inclusive', 'exclusive'));