import {
  limits,
  type AssistantDto,
  type AssistantProfile,
  type CreateAssistantBody,
  type UpdateAssistantBody,
} from '@kesher/contracts';
import type { AssistantRow } from '@kesher/projections/assistants/assistants.queries';

export function toAssistantDto(row: AssistantRow): AssistantDto {
  return {
    id: row.numeric_id,
    name: row.name,
    description: row.description,
    instructions: row.instructions,
    chat_limit: row.chat_limit,
    visitor_daily_limit: row.visitor_daily_limit ?? limits.visitorDailyLimitDefault,
    website_url: row.website_url,
    avatar_url: row.avatar_url,
    created_at: row.created_at,
    updated_at: row.updated_at,
    user_id: row.owner_id,
    openai_assistant_id: row.external_id,
    share_token: row.share_token,
    telegram_integration: row.telegram_integration,
    web_crawler: row.web_crawler,
    payment_processing: row.payment_processing,
  };
}

/** Create payload (spec §3) → profile, with the spec's create-time crawler defaults. */
export function profileFromCreate(body: CreateAssistantBody): AssistantProfile {
  const crawlerConfig = body.web_crawler?.web_crawler_config;
  return {
    name: body.name,
    description: body.description,
    instructions: body.instructions,
    chat_limit: body.chat_limit,
    ...(body.visitor_daily_limit === undefined ? {} : { visitor_daily_limit: body.visitor_daily_limit }),
    website_url: body.website_url,
    avatar_url: body.avatar_url,
    web_crawler: {
      enabled: body.web_crawler?.enabled ?? false,
      website_url: crawlerConfig?.url ?? body.website_url,
      max_pages: crawlerConfig?.max_pages ?? 2000,
      max_depth: crawlerConfig?.max_depth ?? 10,
      delete_orphaned_pages: crawlerConfig?.delete_orphaned_pages ?? false,
    },
    payment_processing: {
      enabled: body.sales_mode?.enabled ?? false,
      sales_prompt: body.sales_mode?.sales_prompt ?? '',
    },
  };
}

/** Fields absent from the body stay as they are. */
export function changesFromUpdate(body: UpdateAssistantBody): Partial<AssistantProfile> {
  return Object.fromEntries(
    Object.entries(body).filter(([, value]) => value !== undefined),
  ) as Partial<AssistantProfile>;
}
