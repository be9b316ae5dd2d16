-- Film hire (DESIGN §7.4, decision 048): distributors, and the terms each movie is hired on.
CREATE TABLE "distributors" (
	"id" uuid PRIMARY KEY DEFAULT uuid_v7() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "film_hire_terms" (
	"movie_id" uuid PRIMARY KEY NOT NULL,
	"distributor_id" uuid NOT NULL,
	"percent_bp" integer NOT NULL,
	"guarantee_cents" integer,
	"scale" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "film_hire_terms_percent_check" CHECK ("film_hire_terms"."percent_bp" between 0 and 10000),
	CONSTRAINT "film_hire_terms_guarantee_check" CHECK ("film_hire_terms"."guarantee_cents" is null or "film_hire_terms"."guarantee_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "film_hire_terms" ADD CONSTRAINT "film_hire_terms_movie_id_movies_id_fk" FOREIGN KEY ("movie_id") REFERENCES "public"."movies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "film_hire_terms" ADD CONSTRAINT "film_hire_terms_distributor_id_distributors_id_fk" FOREIGN KEY ("distributor_id") REFERENCES "public"."distributors"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "distributors_name_unique" ON "distributors" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "film_hire_terms_distributor_idx" ON "film_hire_terms" USING btree ("distributor_id");