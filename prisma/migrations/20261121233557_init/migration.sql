-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "email" TEXT,
    "password" TEXT,
    "firstname" TEXT NOT NULL DEFAULT '',
    "lastname" TEXT NOT NULL DEFAULT '',
    "emailverified" BOOLEAN NOT NULL DEFAULT false,
    "anonymous" BOOLEAN NOT NULL DEFAULT false,
    "deletedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Project" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "activeOperatingHours" BOOLEAN NOT NULL DEFAULT false,
    "operatingHours" JSONB,
    "settings" JSONB NOT NULL DEFAULT '{}',
    "widget" JSONB NOT NULL DEFAULT '{}',
    "profile" JSONB NOT NULL DEFAULT '{}',
    "channels" JSONB NOT NULL DEFAULT '[{"name":"chat21"}]',
    "status" INTEGER NOT NULL DEFAULT 100,
    "eventSeq" BIGINT NOT NULL DEFAULT 0,
    "ticketSeq" INTEGER NOT NULL DEFAULT 0,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Project_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProjectUser" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "id_user" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "user_available" BOOLEAN NOT NULL DEFAULT true,
    "max_served_chat" INTEGER,
    "number_assigned_requests" INTEGER NOT NULL DEFAULT 0,
    "last_request_id" TEXT,
    "status" TEXT NOT NULL DEFAULT 'active',
    "isBusy" BOOLEAN NOT NULL DEFAULT false,
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "tags" JSONB NOT NULL DEFAULT '[]',
    "settings" JSONB NOT NULL DEFAULT '{}',
    "presence" JSONB NOT NULL DEFAULT '{"status":"offline"}',
    "isAuthenticated" BOOLEAN NOT NULL DEFAULT true,
    "trashed" BOOLEAN NOT NULL DEFAULT false,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ProjectUser_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Invitation" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "firstname" TEXT NOT NULL DEFAULT '',
    "lastname" TEXT NOT NULL DEFAULT '',
    "user_available" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Invitation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Department" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "routing" TEXT NOT NULL DEFAULT 'pooled',
    "id_group" TEXT,
    "id_bot" TEXT,
    "groups" JSONB NOT NULL DEFAULT '[]',
    "default" BOOLEAN NOT NULL DEFAULT false,
    "status" INTEGER NOT NULL DEFAULT 1,
    "online_msg" TEXT,
    "offline_msg" TEXT,
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Department_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Group" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "members" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "trashed" BOOLEAN NOT NULL DEFAULT false,
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Group_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Bot" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'internal',
    "secret" TEXT NOT NULL,
    "description" TEXT,
    "url" TEXT,
    "webhook_url" TEXT,
    "webhook_enabled" BOOLEAN NOT NULL DEFAULT false,
    "trashed" BOOLEAN NOT NULL DEFAULT false,
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "language" TEXT NOT NULL DEFAULT 'en',
    "public" BOOLEAN NOT NULL DEFAULT false,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Bot_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Intent" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "id_faq_kb" TEXT NOT NULL,
    "intent_display_name" TEXT NOT NULL,
    "question" TEXT NOT NULL DEFAULT '',
    "answer" TEXT NOT NULL DEFAULT '',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "webhook_enabled" BOOLEAN NOT NULL DEFAULT false,
    "language" TEXT NOT NULL DEFAULT 'en',
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Intent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Lead" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "lead_id" TEXT,
    "email" TEXT,
    "fullname" TEXT,
    "phone" TEXT,
    "company" TEXT,
    "note" TEXT,
    "streetAddress" TEXT,
    "city" TEXT,
    "region" TEXT,
    "zipcode" TEXT,
    "country" TEXT,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Lead_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Request" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "ticket_id" INTEGER NOT NULL,
    "first_text" TEXT NOT NULL DEFAULT '',
    "status" INTEGER NOT NULL DEFAULT 100,
    "departmentId" TEXT,
    "leadId" TEXT,
    "requester_id" TEXT,
    "participants" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "participatingAgents" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "participatingBots" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "hasBot" BOOLEAN NOT NULL DEFAULT false,
    "sourcePage" TEXT,
    "language" TEXT,
    "userAgent" TEXT,
    "tags" JSONB NOT NULL DEFAULT '[]',
    "notes" JSONB NOT NULL DEFAULT '[]',
    "rating" INTEGER,
    "rating_message" TEXT,
    "waiting_time" INTEGER,
    "transcript" TEXT,
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "channel" JSONB NOT NULL DEFAULT '{"name":"chat21"}',
    "channelName" TEXT NOT NULL DEFAULT 'chat21',
    "assigned_at" TIMESTAMP(3),
    "first_response_at" TIMESTAMP(3),
    "closed_at" TIMESTAMP(3),
    "closed_by" TEXT,
    "preflight" BOOLEAN NOT NULL DEFAULT false,
    "priority" TEXT NOT NULL DEFAULT 'normal',
    "location" JSONB,
    "snapshot" JSONB NOT NULL DEFAULT '{}',
    "assignment_reason" TEXT,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Request_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Message" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "sender" TEXT NOT NULL,
    "senderFullname" TEXT NOT NULL DEFAULT '',
    "recipient" TEXT NOT NULL,
    "status" INTEGER NOT NULL DEFAULT 200,
    "text" TEXT NOT NULL DEFAULT '',
    "type" TEXT NOT NULL DEFAULT 'text',
    "metadata" JSONB,
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "hidden" BOOLEAN NOT NULL DEFAULT false,
    "receipts" JSONB NOT NULL DEFAULT '{}',
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Tag" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "tag" TEXT NOT NULL,
    "color" TEXT NOT NULL DEFAULT '#43B1F2',
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Tag_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CannedResponse" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "title" TEXT NOT NULL DEFAULT '',
    "text" TEXT NOT NULL DEFAULT '',
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "status" INTEGER NOT NULL DEFAULT 100,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "CannedResponse_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Label" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "lang" TEXT NOT NULL,
    "data" JSONB NOT NULL DEFAULT '{}',
    "category" TEXT,
    "default" BOOLEAN NOT NULL DEFAULT false,
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Label_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Segment" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "match" TEXT NOT NULL DEFAULT 'all',
    "filters" JSONB NOT NULL DEFAULT '[]',
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Segment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CustomEvent" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "project_user" TEXT NOT NULL,
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "CustomEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DomainEvent" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dispatchedAt" TIMESTAMP(3),

    CONSTRAINT "DomainEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Subscription" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "previousSecret" TEXT,
    "previousSecretEnd" TIMESTAMP(3),
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "failingSince" TIMESTAMP(3),
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Subscription_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "subscriptionId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" JSONB NOT NULL DEFAULT '[]',
    "nextAttemptAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KnowledgeBase" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "default" BOOLEAN NOT NULL DEFAULT false,
    "preview_settings" JSONB NOT NULL DEFAULT '{}',
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "KnowledgeBase_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KbContent" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "source" TEXT,
    "content" TEXT NOT NULL DEFAULT '',
    "status" INTEGER NOT NULL DEFAULT -1,
    "error" TEXT,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "KbContent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KbChunk" (
    "id" TEXT NOT NULL,
    "id_project" TEXT NOT NULL,
    "namespace" TEXT NOT NULL,
    "contentId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "text" TEXT NOT NULL,

    CONSTRAINT "KbChunk_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StoredFile" (
    "id" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "id_project" TEXT,
    "contentType" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "v" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "StoredFile_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE INDEX "ProjectUser_id_user_idx" ON "ProjectUser"("id_user");

-- CreateIndex
CREATE INDEX "ProjectUser_id_project_role_trashed_idx" ON "ProjectUser"("id_project", "role", "trashed");

-- CreateIndex
CREATE UNIQUE INDEX "ProjectUser_id_project_id_user_key" ON "ProjectUser"("id_project", "id_user");

-- CreateIndex
CREATE INDEX "Invitation_email_idx" ON "Invitation"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Invitation_id_project_email_key" ON "Invitation"("id_project", "email");

-- CreateIndex
CREATE INDEX "Department_id_project_status_idx" ON "Department"("id_project", "status");

-- CreateIndex
CREATE INDEX "Department_id_project_default_idx" ON "Department"("id_project", "default");

-- CreateIndex
CREATE INDEX "Group_id_project_trashed_idx" ON "Group"("id_project", "trashed");

-- CreateIndex
CREATE INDEX "Bot_id_project_trashed_idx" ON "Bot"("id_project", "trashed");

-- CreateIndex
CREATE INDEX "Intent_id_project_id_faq_kb_idx" ON "Intent"("id_project", "id_faq_kb");

-- CreateIndex
CREATE UNIQUE INDEX "Intent_id_faq_kb_intent_display_name_key" ON "Intent"("id_faq_kb", "intent_display_name");

-- CreateIndex
CREATE INDEX "Lead_id_project_createdAt_idx" ON "Lead"("id_project", "createdAt");

-- CreateIndex
CREATE INDEX "Lead_id_project_email_idx" ON "Lead"("id_project", "email");

-- CreateIndex
CREATE UNIQUE INDEX "Lead_id_project_lead_id_key" ON "Lead"("id_project", "lead_id");

-- CreateIndex
CREATE INDEX "Request_id_project_status_createdAt_idx" ON "Request"("id_project", "status", "createdAt");

-- CreateIndex
CREATE INDEX "Request_id_project_departmentId_idx" ON "Request"("id_project", "departmentId");

-- CreateIndex
CREATE INDEX "Request_id_project_leadId_idx" ON "Request"("id_project", "leadId");

-- CreateIndex
CREATE INDEX "Request_id_project_hasBot_idx" ON "Request"("id_project", "hasBot");

-- CreateIndex
CREATE INDEX "Request_id_project_channelName_idx" ON "Request"("id_project", "channelName");

-- CreateIndex
CREATE UNIQUE INDEX "Request_id_project_request_id_key" ON "Request"("id_project", "request_id");

-- CreateIndex
CREATE UNIQUE INDEX "Request_id_project_ticket_id_key" ON "Request"("id_project", "ticket_id");

-- CreateIndex
CREATE INDEX "Message_id_project_request_id_createdAt_idx" ON "Message"("id_project", "request_id", "createdAt");

-- CreateIndex
CREATE INDEX "Message_id_project_createdAt_idx" ON "Message"("id_project", "createdAt");

-- CreateIndex
CREATE INDEX "Tag_id_project_createdAt_idx" ON "Tag"("id_project", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Tag_id_project_tag_key" ON "Tag"("id_project", "tag");

-- CreateIndex
CREATE INDEX "CannedResponse_id_project_createdAt_idx" ON "CannedResponse"("id_project", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Label_id_project_lang_key" ON "Label"("id_project", "lang");

-- CreateIndex
CREATE INDEX "Segment_id_project_idx" ON "Segment"("id_project");

-- CreateIndex
CREATE INDEX "CustomEvent_id_project_createdAt_idx" ON "CustomEvent"("id_project", "createdAt");

-- CreateIndex
CREATE INDEX "DomainEvent_dispatchedAt_createdAt_idx" ON "DomainEvent"("dispatchedAt", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "DomainEvent_id_project_seq_key" ON "DomainEvent"("id_project", "seq");

-- CreateIndex
CREATE INDEX "Subscription_id_project_event_idx" ON "Subscription"("id_project", "event");

-- CreateIndex
CREATE INDEX "WebhookDelivery_id_project_subscriptionId_createdAt_idx" ON "WebhookDelivery"("id_project", "subscriptionId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_subscriptionId_eventId_key" ON "WebhookDelivery"("subscriptionId", "eventId");

-- CreateIndex
CREATE INDEX "KnowledgeBase_id_project_default_idx" ON "KnowledgeBase"("id_project", "default");

-- CreateIndex
CREATE INDEX "KbContent_id_project_namespace_updatedAt_idx" ON "KbContent"("id_project", "namespace", "updatedAt");

-- CreateIndex
CREATE INDEX "KbContent_id_project_namespace_type_source_idx" ON "KbContent"("id_project", "namespace", "type", "source");

-- CreateIndex
CREATE INDEX "KbChunk_id_project_namespace_idx" ON "KbChunk"("id_project", "namespace");

-- CreateIndex
CREATE INDEX "KbChunk_contentId_idx" ON "KbChunk"("contentId");

-- CreateIndex
CREATE UNIQUE INDEX "StoredFile_path_key" ON "StoredFile"("path");

-- AddForeignKey
ALTER TABLE "ProjectUser" ADD CONSTRAINT "ProjectUser_id_project_fkey" FOREIGN KEY ("id_project") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProjectUser" ADD CONSTRAINT "ProjectUser_id_user_fkey" FOREIGN KEY ("id_user") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
