-- CreateTable
CREATE TABLE "asset_groups" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "upstream_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMP(3),

    CONSTRAINT "asset_groups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "assets" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "group_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "upstream_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "asset_type" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'Processing',
    "failure_reason" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMP(3),

    CONSTRAINT "assets_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "asset_groups_account_id_created_at_idx" ON "asset_groups"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "assets_account_id_created_at_idx" ON "assets"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "assets_group_id_idx" ON "assets"("group_id");

-- CreateIndex
CREATE INDEX "assets_status_updated_at_idx" ON "assets"("status", "updated_at");

-- AddForeignKey
ALTER TABLE "assets" ADD CONSTRAINT "assets_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "asset_groups"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
