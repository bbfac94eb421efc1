import { Body, Get, Put } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { PutPricesDto } from '@gateway/contracts';
import { AdminController } from '../shared/admin-controller.decorator';
import { PricesService } from './prices.service';
import { PricesView } from './prices.view';

@AdminController('prices')
export class PricesController {
  constructor(private readonly prices: PricesService) {}

  @Get()
  @ApiOperation({ summary: 'Every price (micros as decimal strings)' })
  @ApiOkResponse({ type: PricesView })
  list(): Promise<PricesView> {
    return this.prices.list();
  }

  @Put()
  @ApiOperation({ summary: "Set the prices of the given models (each replaces that model's whole price)" })
  @ApiBody({ type: PutPricesDto })
  @ApiOkResponse({ type: PricesView, description: 'The prices written.' })
  put(@Body() body: unknown): Promise<PricesView> {
    return this.prices.put(body);
  }
}
