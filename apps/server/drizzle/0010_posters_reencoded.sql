CREATE TABLE "poster_variants" (
	"poster_id" uuid NOT NULL,
	"width" integer NOT NULL,
	"content_type" text NOT NULL,
	"data" "bytea" NOT NULL,
	"size_bytes" integer NOT NULL,
	"etag" text NOT NULL,
	CONSTRAINT "poster_variants_poster_id_width_pk" PRIMARY KEY("poster_id","width")
);
--> statement-breakpoint
ALTER TABLE "posters" ADD COLUMN "width" integer;--> statement-breakpoint
ALTER TABLE "posters" ADD COLUMN "height" integer;--> statement-breakpoint
ALTER TABLE "poster_variants" ADD CONSTRAINT "poster_variants_poster_id_posters_id_fk" FOREIGN KEY ("poster_id") REFERENCES "public"."posters"("id") ON DELETE cascade ON UPDATE no action;