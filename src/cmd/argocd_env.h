/*
 * argocd_env.h - forwarding header: the Argo CD plugin environment now
 * lives in src/argocd/.  Include the argocd/ headers directly.
 */
#ifndef GS_CMD_ARGOCD_ENV_H
#define GS_CMD_ARGOCD_ENV_H

#include "argocd/argocd_api.h"
#include "argocd/argocd_app.h"
#include "argocd/argocd_env.h"
#include "argocd/argocd_settings.h"

#endif
