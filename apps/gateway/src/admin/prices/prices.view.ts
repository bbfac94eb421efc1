import { ApiProperty } from '@nestjs/swagger';
import { PriceDto } from '@gateway/contracts';

/** Prices in the shape `PUT /admin/prices` accepts. */
export class PricesView {
  @ApiProperty({ description: 'One price per model, sorted by model.', type: () => PriceDto, isArray: true })
  prices: PriceDto[];
}
