import { Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
} from '@nestjs/swagger';
import { DeclaresBody, RouteBody, type DeclaredBody } from '../../platform/http/declared-body';
import { adminBody } from '../shared/admin-body.declaration';
import { AdminController } from '../shared/admin-controller.decorator';
import { WebhookDeliveriesService } from './webhook-deliveries.service';
import { WebhookDeliveryQueryDto } from './webhook-delivery-query.dto';
import { CreateWebhookEndpointDto, UpdateWebhookEndpointDto } from './webhook-endpoint.dto';
import {
  CreatedWebhookEndpointView,
  WebhookDeliveryView,
  WebhookEndpointView,
} from './webhook-endpoint.view';
import { WebhooksService } from './webhooks.service';

@AdminController('webhooks')
export class WebhooksController {
  constructor(
    private readonly endpoints: WebhooksService,
    private readonly deliveries: WebhookDeliveriesService,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Register a webhook endpoint; its signing secret is in this answer only (stored encrypted)',
  })
  @DeclaresBody(adminBody(CreateWebhookEndpointDto))
  @ApiCreatedResponse({ type: CreatedWebhookEndpointView })
  create(@RouteBody() body: DeclaredBody<CreateWebhookEndpointDto>): Promise<CreatedWebhookEndpointView> {
    return this.endpoints.create(body.fields());
  }

  @Get()
  @ApiOperation({ summary: 'Every webhook endpoint' })
  @ApiOkResponse({ type: WebhookEndpointView, isArray: true })
  list(): Promise<WebhookEndpointView[]> {
    return this.endpoints.list();
  }

  @Get(':id')
  @ApiOperation({ summary: 'One webhook endpoint' })
  @ApiOkResponse({ type: WebhookEndpointView })
  get(@Param('id') id: string): Promise<WebhookEndpointView> {
    return this.endpoints.get(id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change the URL, events, account, note or status of an endpoint' })
  @DeclaresBody(adminBody(UpdateWebhookEndpointDto))
  @ApiOkResponse({ type: WebhookEndpointView })
  update(
    @Param('id') id: string,
    @RouteBody() body: DeclaredBody<UpdateWebhookEndpointDto>,
  ): Promise<WebhookEndpointView> {
    return this.endpoints.update(id, body.fields());
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an endpoint and its deliveries' })
  @ApiNoContentResponse({ description: 'Deleted; nothing more is sent to it.' })
  remove(@Param('id') id: string): Promise<void> {
    return this.endpoints.remove(id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    summary: 'A new signing secret, shown once; the old one keeps signing beside it for 24 hours',
  })
  @ApiOkResponse({ type: CreatedWebhookEndpointView })
  rotateSecret(@Param('id') id: string): Promise<CreatedWebhookEndpointView> {
    return this.endpoints.rotateSecret(id);
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: "The endpoint's newest deliveries, each with every attempt" })
  @ApiQuery({ type: WebhookDeliveryQueryDto })
  @ApiOkResponse({ type: WebhookDeliveryView, isArray: true })
  listDeliveries(@Param('id') id: string, @Query() query: unknown): Promise<WebhookDeliveryView[]> {
    return this.deliveries.list(id, query);
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send a delivery again, under the same webhook-id, with a new round of retries' })
  @ApiAcceptedResponse({ type: WebhookDeliveryView })
  redeliver(@Param('id') id: string, @Param('deliveryId') deliveryId: string): Promise<WebhookDeliveryView> {
    return this.deliveries.redeliver(id, deliveryId);
  }
}
