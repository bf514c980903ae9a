import type {
  businessBody,
  BusinessDto,
  PackageBody,
  PackageDto,
  RegionBody,
  RegionDto,
  staticPriceBody,
  StaticPriceDto,
  staticRegionBody,
  StaticRegionDto,
} from '@resi/contract';

/*
 * The catalogue lists an admin edits share one shape on the server (`GET/POST /manage/<thing>`,
 * `PUT/DELETE /manage/<thing>/:id`), so the client talks to them through one typed set of calls.
 */
export interface CatalogueTypes {
  goods: { dto: PackageDto; body: PackageBody };
  region: { dto: RegionDto; body: RegionBody };
  'static-region': { dto: StaticRegionDto; body: ReturnType<typeof staticRegionBody.parse> };
  business: { dto: BusinessDto; body: ReturnType<typeof businessBody.parse> };
  'static-price': { dto: StaticPriceDto; body: ReturnType<typeof staticPriceBody.parse> };
}

export type CatalogueResource = keyof CatalogueTypes;
export type CatalogueDto<R extends CatalogueResource> = CatalogueTypes[R]['dto'];
export type CatalogueBody<R extends CatalogueResource> = CatalogueTypes[R]['body'];

export const catalogueKey = (resource: CatalogueResource) => ['manage-catalogue', resource] as const;
