#!/usr/bin/env python3
"""Writes lib/region-resources.json: which AWS regions lack each CloudFormation resource type our templates use.

Source: cfn-lint's per-region resource provider schemas (cfnlint/data/schemas/providers/<region>.py, which cfn-lint
generates from the CloudFormation registry of each region). The stack consults the JSON at synth
(lib/regions.ts), so a region without a type we need gets a stack without it or one clear line, not a failed deploy.

Usage: python3 scripts/region-resources.py [cdk.out ...]  (after `npm run synth:only`, and ideally also a synth with
an opt-in region: every *.template.json found adds its types to those already listed).
"""
import glob
import importlib
import json
import os
import pkgutil
import sys

from importlib.metadata import version
import cfnlint.data.schemas.providers as providers

OUT = os.path.join(os.path.dirname(__file__), '..', 'lib', 'region-resources.json')
# The standard `aws` partition: the only one CDK's default bootstrap and our ARNs target.
OTHER_PARTITIONS = ('cn-', 'us-gov-', 'us-iso', 'eu-isoe-', 'eusc-')


def main() -> None:
    types = set()
    if os.path.exists(OUT):
        with open(OUT) as f:
            types.update(json.load(f)['types'])
    for out in sys.argv[1:] or ['cdk.out']:
        for path in glob.glob(os.path.join(out, '*.template.json')):
            with open(path) as f:
                for resource in json.load(f).get('Resources', {}).values():
                    t = resource['Type']
                    if t.startswith('AWS::') and t != 'AWS::CDK::Metadata':
                        types.add(t)
    regions = {}
    for mod in pkgutil.iter_modules(providers.__path__):
        region = mod.name.replace('_', '-')
        if region.startswith(OTHER_PARTITIONS):
            continue
        regions[region] = set(importlib.import_module(f'{providers.__name__}.{mod.name}').types)
    missing = {t: sorted(r for r, have in regions.items() if t not in have) for t in sorted(types)}
    with open(OUT, 'w') as f:
        json.dump(
            {
                'source': f'cfn-lint {version("cfn-lint")} resource provider schemas (cfnlint/data/schemas/providers); regenerate with scripts/region-resources.py',
                'regions': sorted(regions),
                'types': sorted(types),
                'missing': {t: r for t, r in missing.items() if r},
            },
            f,
            indent=2,
        )
        f.write('\n')


if __name__ == '__main__':
    main()
